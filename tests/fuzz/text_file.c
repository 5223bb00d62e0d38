/* Fuzzes the text modes of tofile and fromfile on the host: the reader
   (ga__text_read: NumPy's number scanners and separator matching) and the
   %-format compiler and formatter (ga__pyfmt_compile, ga__text_format).

   Input: a mode byte, a dtype byte, a count byte; then, mode even: a
   separator (up to a NUL) and the text to read; mode odd: the format (up
   to a NUL) and the bytes of the elements to write.

   Invariants: no crash, no read past the input (ASan, UBSan); read in runs
   of 1 and of 1000 elements, the text gives the same elements and the same
   end; no more than count elements; an unmatched text is the only error.
   A format compiles or fails with a Python error naming ga_tofile; a
   compiled one writes ASCII text, and fails only on the values Python
   refuses (NaN and infinities as integers, %c beyond ASCII). */
#include "fuzz.h"

static const ga_dtype text_dtypes[] = {GA_BOOL, GA_INT8, GA_INT16, GA_INT32, GA_INT64, GA_UINT8, GA_UINT16, GA_UINT32, GA_UINT64,
                                       GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};

/* The elements of text read k at a time into out (room for 4096): their count, r's end. */
static int64_t read_runs(const char *text, size_t len, ga_dtype t, int64_t count, const char *sep, int64_t k, unsigned char *out, int *stop)
{
    ga__text_reader r;
    FUZZ_CHECK(ga__text_reader_init("ga_fromfile", &r, NULL, text, len, t, count, sep) == GA_OK, "the reader's init");
    int64_t n = 0;
    while (!ga__text_done(&r) && n + k <= 4096) {
        const int64_t got = ga__text_read(&r, out + (size_t)n * ga__dtype_sizes[t], k);
        n += got;
        if (got < k) break;
    }
    *stop = ga__text_done(&r) ? r.stop : 1; /* (1: stopped for room) */
    ga__text_reader_free(&r);
    return n;
}

static void fuzz_read(const char *sep, const char *text, size_t len, ga_dtype t, int64_t count)
{
    if (t == GA_BFLOAT16 || !*sep) return;
    unsigned char *a = (unsigned char *)malloc(4096 * 16), *b = (unsigned char *)malloc(4096 * 16);
    int sa, sb;
    const int64_t na = read_runs(text, len, t, count, sep, 1, a, &sa), nb = read_runs(text, len, t, count, sep, 1000, b, &sb);
    if (sa != 1 && sb != 1) {
        FUZZ_CHECK(na == nb && sa == sb, "runs of 1: %lld elements (end %d), of 1000: %lld (end %d)", (long long)na, sa, (long long)nb, sb);
        FUZZ_CHECK(memcmp(a, b, (size_t)na * ga__dtype_sizes[t]) == 0, "runs of 1 and 1000 read different values");
        FUZZ_CHECK(sa == 0 || sa == -1 || sa == -2, "end %d", sa);
        FUZZ_CHECK(count < 0 || na <= count, "%lld elements of %lld asked for", (long long)na, (long long)count);
    }
    free(a), free(b);
}

static void fuzz_write(const char *format, const unsigned char *data, size_t len, ga_dtype t)
{
    ga__pyfmt f;
    ga_clear_error();
    if (ga__pyfmt_compile("ga_tofile", format, t, &f) != GA_OK) {
        const ga_status e = ga_last_error();
        FUZZ_CHECK(e == GA_ERROR_VALUE || e == GA_ERROR_TYPE, "compile error %d", (int)e);
        FUZZ_CHECK(strncmp(ga_last_error_message(), "ga_tofile: ", 11) == 0, "an error that does not name ga_tofile");
        ga__pyfmt_free(&f);
        return;
    }
    if (f.width > 4096 || f.prec > 4096) { /* (Python would write them: only slow here) */
        ga__pyfmt_free(&f);
        return;
    }
    const int64_t n = (int64_t)GA__MIN(len / ga__dtype_sizes[t], 64);
    ga__sb b = {NULL, 0, 0, false};
    const ga_status st = ga__text_format("ga_tofile", &b, data, t, n, true, ",", &f);
    if (st != GA_OK) {
        FUZZ_CHECK(st == GA_ERROR_VALUE || st == GA_ERROR_OVERFLOW, "format error %d", (int)st);
        FUZZ_CHECK(strchr("iduc", f.conv) != NULL, "an error from conversion %c", f.conv);
    }
    for (size_t i = 0; i < b.n; i++) FUZZ_CHECK((unsigned char)b.p[i] < 0x80, "non-ASCII text written");
    GPUARR_FREE(b.p);
    ga__pyfmt_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    const bool write = data[0] & 1;
    const ga_dtype t = text_dtypes[data[1] % (sizeof text_dtypes / sizeof text_dtypes[0])];
    const int64_t count = data[2] >= 128 ? -1 : data[2] % 16;
    /* (copies of exactly their bytes, so that ASan sees any over-read) */
    const uint8_t *rest = data + 3, *nul = (const uint8_t *)memchr(rest, 0, size - 3);
    const size_t head = nul ? (size_t)(nul - rest) : size - 3, tail = nul ? size - 3 - head - 1 : 0;
    char *first = (char *)malloc(head + 1);
    unsigned char *second = (unsigned char *)malloc(tail ? tail : 1);
    memcpy(first, rest, head), first[head] = 0;
    if (tail) memcpy(second, nul + 1, tail);
    if (write) fuzz_write(first, second, tail, t);
    else fuzz_read(first, (const char *)second, tail, t, count);
    ga_clear_error();
    free(first), free(second);
    return 0;
}
