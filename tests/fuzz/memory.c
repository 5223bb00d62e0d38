/* Fuzzes the memory section's arithmetic: the GPUARR_MEMORY_LIMIT parser
   (ga__parse_memory_limit, on any text and device size), and the pool's
   sizes (ga__pool_bin, ga__pool_chunk_size, ga__pool_alloc over a fake
   allocator that grants any size) for sizes up to SIZE_MAX.

   Invariants: the parser never converts an out-of-range double (UBSan's
   float-cast-overflow), and a plain "<digits>[KMGT][B|iB]" gives the exact
   product (SIZE_MAX beyond it); a bin is one of GA__POOL_BINS; a chunk is
   never smaller than its block; a block the pool hands out holds the bytes
   asked for, within the limit, and every block goes back. */
#include "fuzz.h"

static int grant(void *ctx, size_t bytes, uint64_t *ptr)
{
    (void)ctx;
    *ptr = (uint64_t)1 << 44;
    return bytes == 0; /* a zero-byte chunk is a pool bug: refuse it */
}
static void give_back(void *ctx, uint64_t ptr, size_t bytes) { (void)ctx, (void)ptr, (void)bytes; }
static int record(void *ctx, void **event, uintptr_t stream, int device) { (void)ctx, (void)event, (void)stream, (void)device; return 0; }
static int done(void *ctx, void *event) { (void)ctx, (void)event; return 1; }
static int wait_for(void *ctx, void *event) { return (void)ctx, (void)event, 0; }
static void destroy(void *ctx, void *event) { (void)ctx, (void)event; }
static const ga__pool_ops generous = {grant, give_back, record, done, wait_for, destroy};

/* The exact limit of a plain "<digits><suffix>" text, or -1 when it is not one. */
static __int128 plain_limit(const char *t)
{
    __int128 v = 0;
    int digits = 0;
    while (*t >= '0' && *t <= '9' && digits < 20) v = v * 10 + (*t++ - '0'), digits++;
    if (!digits || digits >= 20) return -1;
    int shift = 0;
    switch (*t) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    case 0: return v;
    default: return -1;
    }
    t++;
    if (t[0] == 'i' && t[1] == 'B') t += 2;
    else if (t[0] == 'B') t++;
    return *t ? -1 : v << shift;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    size_t total = (size_t)fuzz_bits(&in, 8);
    char *text = (char *)malloc(in.n + 1);
    memcpy(text, in.p, in.n);
    text[in.n] = 0;
    size_t limit = ga__parse_memory_limit(text, total);
    __int128 exact = plain_limit(text);
    if (exact >= 0 && exact < ((__int128)1 << 53)) /* where a double holds it exactly */
        FUZZ_CHECK(limit == (size_t)exact, "\"%s\" gives %zu, not %lld", text, limit, (long long)exact);
    if (exact > (__int128)SIZE_MAX) FUZZ_CHECK(limit == SIZE_MAX, "\"%s\" gives %zu, not SIZE_MAX", text, limit);
    free(text);

    /* the pool's sizes, from the same bytes */
    fuzz_in again = {data, size};
    size_t bytes = (size_t)fuzz_bits(&again, 8);
    if (fuzz_byte(&again) & 1) bytes = SIZE_MAX - (bytes & 0xFFFFFFu); /* near the top */
    FUZZ_CHECK(ga__pool_bin(bytes) < GA__POOL_BINS, "bin of %zu", bytes);
    FUZZ_CHECK(ga__pool_chunk_size(bytes) >= bytes, "a chunk of %zu for %zu bytes", ga__pool_chunk_size(bytes), bytes);
    ga__pool p;
    ga__pool_init(&p, &generous, NULL, 0);
    if (fuzz_byte(&again) & 1) p.stats.limit_bytes = (size_t)fuzz_bits(&again, 8);
    ga__block *b = ga__pool_alloc(&p, bytes, 1, 0, fuzz_byte(&again) & 1);
    if (b) {
        FUZZ_CHECK(b->size >= bytes && b->size % GA__POOL_ROUND == 0, "a block of %zu for %zu bytes", b->size, bytes);
        FUZZ_CHECK(!p.stats.limit_bytes || p.stats.held_bytes <= p.stats.limit_bytes, "the limit was passed");
        if (!ga__pool_free_ptr(&p, b->ptr, GA__POOL_HOST_STREAM, 0)) ga__pool_free(&p, b);
    }
    ga_memory_stats st = ga__pool_stats(&p);
    FUZZ_CHECK(st.used_bytes == 0, "%zu bytes still used", st.used_bytes);
    ga__pool_destroy(&p);
    return 0;
}
