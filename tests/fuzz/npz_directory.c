/* Fuzzes the .npz (zip) directory reader on any bytes taken as a whole
   archive: the end of central directory record (and zip64's locator and
   record), then the central directory's entries with their zip64 extra
   fields; then each of the first members read as ga_npz_get reads it
   (its local header, its bytes stored or inflated, the CRC-32 at its
   end), the inflated bytes capped.

   Invariants: no crash, no read past the input (ASan, UBSan); an accepted
   directory lies inside the input, and has entries with names and at most
   as many entries as fit in it; a member gives no more bytes than a
   stored one holds, and fails only with zip's, zlib's or the method's
   errors. */
#include "fuzz.h"

FILE *fmemopen(void *buf, size_t size, const char *mode); /* POSIX, hidden by -std=c11 */

/* Member e of the archive buf[0, size) read whole, at most 1 MiB of it. */
static void fuzz_member(uint8_t *buf, size_t size, const ga__zip_entry *e)
{
    FILE *f = fmemopen(buf, size, "rb");
    if (!f) return;
    static unsigned char out[(size_t)1 << 20];
    ga__npy_in in;
    size_t total = 0, got = 0;
    ga_status st = ga__npz_open_member("ga_npz_get", f, "fuzz.npz", e, &in);
    while (st == GA_OK && total < sizeof out) {
        const size_t piece = GA__MIN(sizeof out - total, (size_t)4096 + total % 4093);
        st = ga__npy_in_read("ga_npz_get", &in, out + total, piece, &got);
        total += got;
        if (got < piece) break;
    }
    ga__npy_in_close(&in);
    fclose(f);
    FUZZ_CHECK(e->method != 0 || total <= e->csize, "a stored member of %llu bytes gave %zu", (unsigned long long)e->csize, total);
    static const ga_status allowed[] = {GA_ERROR_VALUE, GA_ERROR_NOT_IMPLEMENTED, GA_ERROR_IO, GA_ERROR_LIBRARY, GA_OK};
    if (st != GA_OK) fuzz_check_error("ga_npz_get", allowed);
    ga_clear_error();
}

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
            for (int i = 0; i < n && i < 4; i++) fuzz_member(buf, size, &e[i]);
        }
        ga__zip_free(e, n);
    }
    ga_clear_error();
    free(buf);
    return 0;
}
