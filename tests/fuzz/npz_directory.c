/* Fuzzes the .npz (zip) directory reader on any bytes taken as a whole
   archive: the end of central directory record (and zip64's locator and
   record), then the central directory's entries with their zip64 extra
   fields.

   Invariants: no crash, no read past the input (ASan, UBSan); an accepted
   directory lies inside the input, and has entries with names and at most
   as many entries as fit in it. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = (uint8_t *)malloc(size ? size : 1); /* (exactly `size` bytes: ASan sees any over-read) */
    memcpy(buf, data, size);
    uint64_t off = 0, cd = 0, count = 0;
    ga_clear_error();
    if (ga__zip_eocd("ga_load_npz", buf, size, size, &off, &cd, &count) == GA_OK) {
        FUZZ_CHECK(off <= size && cd <= size - off, "directory [%llu, +%llu) of %zu bytes", (unsigned long long)off,
                   (unsigned long long)cd, size);
        ga__zip_entry *e = NULL;
        int n = 0;
        if (ga__zip_central("ga_load_npz", buf + off, (size_t)cd, count, &e, &n) == GA_OK) {
            FUZZ_CHECK((uint64_t)n == count && (uint64_t)n * 46 <= cd, "%d entries in %llu bytes", n, (unsigned long long)cd);
            for (int i = 0; i < n; i++) FUZZ_CHECK(e[i].name && strlen(e[i].name) <= cd, "entry %d's name", i);
        }
        ga__zip_free(e, n);
    }
    ga_clear_error();
    free(buf);
    return 0;
}
