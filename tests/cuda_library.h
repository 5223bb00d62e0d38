/* cuda_library.h - for the test programs of the sections over a CUDA
   library (linalg, fft, sparse, nccl): that every entry point of a library is
   resolved when it is loaded from the toolkit. Include after harness.h,
   with GPUARR_IMPLEMENTATION (it reads the loader's tables). */
#ifndef GPUARR_TEST_CUDA_LIBRARY_H
#define GPUARR_TEST_CUDA_LIBRARY_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* access */

/* Loads library `name` from the toolkit's lib64/`soname` (or lib/, or the
   loader's search path where the toolkit has neither; named in the
   environment variable `env`; with GPUARR_LINK_CUDA_LIBRARIES, from the
   link), checks each of `points` in `table` resolved and that a second load
   is a no-op, and leaves `env` as it was. */
static void check_every_entry_point(const char *name, const char *env, const char *soname,
                                    const ga__entry_point *points, const void *table)
{
    char path[512];
    const char *home = getenv("CUDA_HOME");
    snprintf(path, sizeof path, "%s/lib64/%s", home && *home ? home : "/usr/local/cuda", soname);
    if (access(path, R_OK) != 0) /* (NCCL is in the toolkit's lib/ where it is not in lib64/) */
        snprintf(path, sizeof path, "%s/lib/%s", home && *home ? home : "/usr/local/cuda", soname);
    if (access(path, R_OK) != 0) /* (nor there, where NCCL is a system package: the loader's search path) */
        snprintf(path, sizeof path, "%s", soname);
    char *saved = getenv(env) ? strdup(getenv(env)) : NULL;
#ifndef GPUARR_LINK_CUDA_LIBRARIES
    setenv(env, path, 1);
    ga_shutdown(); /* forgets an earlier failure */
#endif
    CHECK(ga_cuda_library_load(name) == GA_OK, "loading %s: %s", path, ga_last_error_message());
    for (const ga__entry_point *e = points; e->name; e++) {
        void *fn = NULL;
        memcpy(&fn, (const char *)table + e->offset, sizeof fn);
        CHECK(fn != NULL, "%s: %s was not resolved", name, e->name);
    }
    CHECK(ga_cuda_library_load(name) == GA_OK, "%s, a second load: %s", name, ga_last_error_message());
    if (saved) setenv(env, saved, 1);
    else unsetenv(env);
    free(saved);
    ga_clear_error();
}

#endif
