/* gpuarr-info: what gpuarr sees on this machine: its version, the CUDA
   driver, each device, the kernel fatbins it would load (and the GPU
   architectures inside each), the memory pools, the FFT plan cache and the
   CUDA libraries with the handles made of them.

       make info && ./build/gpuarr-info

   It runs without a GPU or a driver, reporting why the GPU cannot be used. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the fatbin container ---------------------------------------------------
   A fatbin is one or more containers, each a 16-byte header followed by
   entries (a header of `header_size` bytes, then `padded_payload_size` bytes
   of PTX or ELF, possibly compressed). Little-endian. Layout, as nvcc 13
   writes it (cuobjdump --list-elf --list-ptx agrees):
     container: u32 magic 0xBA55ED50, u16 version, u16 header_size, u64 fat_size
     entry:     u16 kind (1 PTX, 2 ELF), u16 version, u32 header_size,
                u64 padded_payload_size, u32 payload_size (compressed bytes, or 0),
                u32 -, u32 -, u32 sm_arch (major * 10 + minor), ...,
                u64 flags at 40 (0x100000: arch-specific "a", 0x200000: family "f") */

#define FATBIN_MAGIC 0xBA55ED50u

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

typedef struct arch { unsigned kind, number; char suffix; } arch;

/* Orders SASS before PTX, each by arch number. */
static int arch_order(const void *x, const void *y)
{
    const arch *a = x, *b = y;
    if (a->kind != b->kind) return a->kind == 2 ? -1 : b->kind == 2 ? 1 : (int)a->kind - (int)b->kind;
    if (a->number != b->number) return a->number < b->number ? -1 : 1;
    return a->suffix - b->suffix;
}

/* Writes the archs of the fatbin image [p, p + n) to `out`, each once, as
   "sm_80 sm_90 compute_90". Returns 0, or -1 if the image is not a fatbin. */
static int fatbin_archs(const unsigned char *p, size_t n, char *out, size_t out_size)
{
    arch found[64];
    int count = 0;
    size_t off = 0;
    out[0] = '\0';
    if (n < 16 || le(p, 4) != FATBIN_MAGIC) return -1;
    while (off + 16 <= n && le(p + off, 4) == FATBIN_MAGIC) {
        uint64_t header = le(p + off + 6, 2), fat = le(p + off + 8, 8);
        if (header < 16 || fat > n - off - header) return -1;
        size_t e = off + (size_t)header, end = e + (size_t)fat;
        while (e + 48 <= end) {
            uint64_t entry_header = le(p + e + 4, 4), payload = le(p + e + 8, 8);
            uint64_t flags = le(p + e + 40, 8);
            if (entry_header < 48 || entry_header > end - e || payload > end - e - entry_header)
                return -1;
            arch a = {(unsigned)le(p + e, 2), (unsigned)le(p + e + 28, 4),
                      flags & 0x100000 ? 'a' : flags & 0x200000 ? 'f' : '\0'};
            int seen = 0;
            for (int i = 0; i < count; i++) seen |= arch_order(&a, &found[i]) == 0;
            if (!seen && count < 64) found[count++] = a;
            e += (size_t)entry_header + (size_t)payload;
        }
        off = end;
    }
    qsort(found, (size_t)count, sizeof found[0], arch_order);
    for (int i = 0; i < count; i++) {
        size_t used = strlen(out);
        const char *kind = found[i].kind == 1 ? "compute" : found[i].kind == 2 ? "sm" : "unknown";
        snprintf(out + used, out_size - used, "%s%s_%u%.1s", i ? " " : "", kind,
                 found[i].number, &found[i].suffix);
    }
    return 0;
}

/* Prints one family's fatbin: where it is, its size, its archs. */
static void show_fatbin(const char *family, const char *path, const unsigned char *data, size_t n)
{
    char archs[512];
    if (fatbin_archs(data, n, archs, sizeof archs) != 0)
        printf("  %-10s %s: %zu bytes, not a fatbin\n", family, path, n);
    else
        printf("  %-10s %s: %.1f KiB, %s\n", family, path, n / 1024.0, archs[0] ? archs : "no code");
}

/* One family: where gpuarr loads it from, its size and archs. */
static void show_family(int family)
{
    const char *name = ga_kernel_family_name(family);
    char path[1024];
    if (!ga_kernel_family_locate(family, path, sizeof path)) {
        printf("  %-10s not found in %s (run `make fatbins`)\n", name, path);
        return;
    }
#ifdef GPUARR_EMBED_FATBINS
    const ga__embedded_fatbin *e = ga__embedded_fatbins;
    while (strcmp(e->name, name) != 0) e++;
    show_fatbin(name, "(embedded)", e->data, (size_t)(e->end - e->data));
#else
    FILE *f = fopen(path, "rb");
    long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *data = size > 0 ? malloc((size_t)size) : NULL;
    if (data && fseek(f, 0, SEEK_SET) == 0 && fread(data, 1, (size_t)size, f) == (size_t)size)
        show_fatbin(name, path, data, (size_t)size);
    else
        printf("  %-10s %s: could not be read\n", name, path);
    free(data);
    if (f) fclose(f);
#endif
}

static void show_kernels(void)
{
    printf("kernels:\n");
    for (int i = 0; i < ga_kernel_family_count(); i++) show_family(i);
}

static double mib(size_t bytes) { return bytes / (1024.0 * 1024.0); }

/* Device 0's pool after a small allocation, and a kernel launched from each
   kind of fatbin (so a missing or stale fatbin shows here). */
static int check_device(void)
{
    ga_array *a = ga_arange_int(0, 1000, 1, GA_INT32);
    ga_array *b = ga_astype(a, GA_FLOAT32);
    float host[1000];
    ga_status st = ga_to_host(b, host, sizeof host);
    int ok = st == GA_OK && host[999] == 999.0f;
    printf("kernel check on device 0: %s\n",
           ok ? "ok" : st != GA_OK ? ga_last_error_message() : "wrong values");
    ga_memory_stats s;
    if (ga_memory_get_stats(0, &s) == GA_OK) {
        printf("memory pool of device 0 (two 4000-byte arrays allocated):\n");
        printf("  used %zu bytes (peak %zu), held %zu bytes in %zu chunk%s, %zu free block%s\n",
               s.used_bytes, s.peak_used_bytes, s.held_bytes, s.chunks, s.chunks == 1 ? "" : "s",
               s.free_blocks, s.free_blocks == 1 ? "" : "s");
        if (s.limit_bytes) printf("  limit %.1f MiB (GPUARR_MEMORY_LIMIT)\n", mib(s.limit_bytes));
        else printf("  no limit (set one with GPUARR_MEMORY_LIMIT)\n");
        printf("  %zu bytes kept for CUDA graphs\n", s.graph_bytes);
    }
    if (ga_pinned_get_stats(&s) == GA_OK)
        printf("pinned host pool: used %zu bytes (peak %zu), held %zu bytes in %zu chunk%s\n", s.used_bytes,
               s.peak_used_bytes, s.held_bytes, s.chunks, s.chunks == 1 ? "" : "s");
    ga_fft_plan_cache_info fft;
    if (ga_fft_plan_cache_get_info(&fft) == GA_OK)
        printf("FFT plan cache of device 0: %d of %d plans, %zu bytes of work areas, %llu hits, %llu misses\n",
               fft.size, fft.max_size, fft.work_bytes, (unsigned long long)fft.hits, (unsigned long long)fft.misses);
    /* the outer product of b with itself (10^6 multiplies: cuBLAS's, a handle made) */
    const int64_t col[2] = {1000, 1};
    ga_array *m = ga_reshape(b, 2, col), *mt = m ? ga_transpose(m, NULL) : NULL, *p = mt ? ga_matmul(m, mt) : NULL;
    ga_array *last = p ? ga_index(p, "-1, -1") : NULL; /* 999^2 */
    float corner = 0;
    if (last && ga_to_host(last, &corner, sizeof corner) == GA_OK)
        printf("cuBLAS check on device 0: %s\n", corner == 998001.0f ? "ok" : "wrong value");
    else printf("cuBLAS check on device 0: %s\n", ga_last_error_message());
    ga_release(last), ga_release(p), ga_release(mt), ga_release(m);
    const char *nvtx = getenv("GPUARR_NVTX");
    printf("NVTX ranges around gpuarr's calls: %s (GPUARR_NVTX)\n", nvtx && *nvtx && strcmp(nvtx, "0") ? "on" : "off");
    ga_release(b);
    ga_release(a);
    return ok ? 0 : 1;
}

/* The CUDA libraries gpuarr opens at their first use: where from, whether
   loaded (this program needs none), and the handles made of them. */
static void show_libraries(void)
{
    printf("CUDA libraries (opened at first use):\n");
    for (int i = 0; ga_cuda_library_name(i); i++) {
        ga_cuda_library_info info;
        if (ga_cuda_library_get_info(ga_cuda_library_name(i), &info) != GA_OK) continue;
        const char *state = info.state == 1 ? (info.linked ? "linked" : "loaded") : info.state < 0 ? "failed" : "not needed yet";
        printf("  %-9s %-20s %s, %d handle%s\n", ga_cuda_library_name(i), info.linked ? "" : info.file, state,
               info.handles, info.handles == 1 ? "" : "s");
    }
}

int main(void)
{
    printf("gpuarr %s\n", GPUARR_VERSION_STRING);
    ga_status st = ga_init();
    int version = ga_driver_version();
    if (st == GA_ERROR_NO_DRIVER)
        printf("no CUDA driver: %s\n", ga_last_error_message());
    else if (version)
        printf("CUDA driver %d.%d\n", version / 1000, version % 1000 / 10);
    if (st != GA_OK && st != GA_ERROR_NO_DRIVER) printf("no GPU: %s\n", ga_last_error_message());

    int count = st == GA_OK ? ga_device_count() : 0;
    for (int i = 0; i < count; i++) {
        ga_device_properties p;
        size_t free_bytes = 0, total = 0;
        if (ga_device_get_properties(i, &p) != GA_OK) {
            printf("device %d: %s\n", i, ga_last_error_message());
            continue;
        }
        ga_device_memory_info(i, &free_bytes, &total);
        printf("device %d: %s\n", i, p.name);
        printf("  compute capability %d.%d (sm_%d%d), %d SMs, warp %d, %d threads per block\n",
               p.compute_capability_major, p.compute_capability_minor, p.compute_capability_major,
               p.compute_capability_minor, p.multiprocessor_count, p.warp_size,
               p.max_threads_per_block);
        printf("  memory %.1f GiB (%.1f GiB free), %d-bit bus at %d MHz, L2 %.1f MiB\n",
               mib(p.total_memory) / 1024, mib(free_bytes) / 1024, p.memory_bus_width,
               p.memory_clock_rate_khz / 1000, mib(p.l2_cache_size));
    }

    show_kernels();
    int status = count > 0 ? check_device() : 0;
    show_libraries();
    ga_shutdown();
    return status;
}
