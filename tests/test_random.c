/* Host tests of the random numbers' foundation (gpuarr.h, >>random): NumPy's
   SeedSequence, numpy.random.Philox (Philox4x64-10) and the host draws of
   Generator(Philox(seed)) bit for bit against NumPy's answers in
   tests/random_cases.h (tools/gen_random_cases.py): generate_state for
   integer and word-array seeds and spawn keys, raw streams, random() in
   float64 and float32, integers over power-of-two ranges for every bool and
   integer dtype, advance, jumped, spawn, and the state after each. The
   default bit generator, Philox4x32-10, against Random123's known answers,
   its seeding and its stream's contract. Error paths check NumPy's words.
   These need no GPU. The device tests (DEVICE_TEST, at the end) check the
   draws of kernels/random.cu against the host's stream of the default bit
   generator: raw words from every place in a block, random() and
   standard_normal in float32 and float64, split invariance, the global
   generator. multinomial of n-d pvals and array n (after
   multivariate_hypergeometric): its argument and shape errors on the host;
   on the device its shapes, rows, means and the 1-d values kept.
   multivariate_normal (at the very end): its argument errors on
   the host; on the device its moments, singular and non-PSD covs, sizes,
   and mean + z @ A^T of standard_normal's z. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "random_cases.h"
#include "random_stats.h"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

static bool same_state(const ga_random_state *a, const ga_random_state *b)
{
    return a->bit_generator == b->bit_generator && memcmp(a->counter, b->counter, sizeof a->counter) == 0 &&
           memcmp(a->key, b->key, sizeof a->key) == 0 && memcmp(a->buffer, b->buffer, sizeof a->buffer) == 0 &&
           a->buffer_pos == b->buffer_pos && a->has_uint32 == b->has_uint32 && a->uinteger == b->uinteger;
}

/* Checks g's state against NumPy's; `what` names the case. */
static void check_state(const ga_generator *g, const ga_random_state *want, const char *what, int i)
{
    ga_random_state s;
    CHECK_OK(ga_random_get_state(g, &s));
    CHECK(same_state(&s, want),
          "%s %d: state counter %016llx %016llx %016llx %016llx pos %d has_uint32 %d, NumPy's "
          "%016llx %016llx %016llx %016llx pos %d has_uint32 %d",
          what, i, (unsigned long long)s.counter[0], (unsigned long long)s.counter[1],
          (unsigned long long)s.counter[2], (unsigned long long)s.counter[3], s.buffer_pos, s.has_uint32,
          (unsigned long long)want->counter[0], (unsigned long long)want->counter[1],
          (unsigned long long)want->counter[2], (unsigned long long)want->counter[3], want->buffer_pos,
          want->has_uint32);
}

/* ---- SeedSequence ------------------------------------------------------- */

TEST(random_seed_words_are_numpys)
{
    uint32_t w[4];
    CHECK(ga_random_seed_words(0, 0, w) == 1 && w[0] == 0, "0 is one zero word");
    CHECK(ga_random_seed_words(0, 12345, w) == 1 && w[0] == 12345, "12345 is one word");
    CHECK(ga_random_seed_words(0, 1ull << 32, w) == 2 && w[0] == 0 && w[1] == 1, "2**32 is two words");
    CHECK(ga_random_seed_words(0, UINT64_MAX, w) == 2 && w[0] == UINT32_MAX && w[1] == UINT32_MAX,
          "2**64-1 is two words");
    CHECK(ga_random_seed_words(1ull << 36, 12345, w) == 4 && w[0] == 12345 && w[1] == 0 && w[2] == 0 && w[3] == 16,
          "2**100+12345 is four words");
    CHECK(ga_random_seed_words(1, 0, NULL) == 3, "2**64 is three words");
}

TEST(random_seed_sequence_generate_state)
{
    for (int i = 0; i < COUNT(SEED_SEQ_CASES); i++) {
        const seed_seq_case *c = &SEED_SEQ_CASES[i];
        ga__seed_seq s;
        if (ga__seed_seq_init("test", &s, c->entropy, c->n_entropy, c->spawn_key, c->n_spawn_key) != GA_OK) {
            CHECK(0, "%s: %s", c->what, ga_last_error_message());
            continue;
        }
        uint32_t w[8];
        uint64_t d[4];
        ga__seed_generate32(&s, w, 8);
        ga__seed_generate64(&s, d, 4);
        CHECK(memcmp(w, c->state32, sizeof w) == 0, "SeedSequence(%s).generate_state(8): %08x %08x.., NumPy's %08x %08x..",
              c->what, w[0], w[1], c->state32[0], c->state32[1]);
        CHECK(memcmp(d, c->state64, sizeof d) == 0, "SeedSequence(%s).generate_state(4, uint64) differs from NumPy's",
              c->what);
        ga__seed_seq_free(&s);
    }
}

/* A child of spawn is SeedSequence(entropy, spawn_key=parent's + (i,)). */
TEST(random_seed_sequence_children)
{
    const uint32_t entropy[2] = {7, 8}, key[3] = {4, 0, 9};
    ga__seed_seq parent, child, direct;
    CHECK_OK(ga__seed_seq_init("test", &parent, entropy, 2, key, 2));
    CHECK_OK(ga__seed_seq_child("test", &parent, 9, &child));
    CHECK_OK(ga__seed_seq_init("test", &direct, entropy, 2, key, 3));
    CHECK(memcmp(child.pool, direct.pool, sizeof child.pool) == 0, "the child's pool is its spawn key's");
    CHECK(child.n_spawn_key == 3 && child.words[child.n_entropy + 2] == 9, "the child's key ends with its index");
    ga__seed_seq_free(&parent), ga__seed_seq_free(&child), ga__seed_seq_free(&direct);
}

/* ---- Philox4x64: NumPy's Philox ------------------------------------------ */

TEST(random_philox_raw_matches_numpy)
{
    for (int i = 0; i < COUNT(STREAM_CASES); i++) {
        const stream_case *c = &STREAM_CASES[i];
        ga_generator *g = ga_random_philox(c->seed, c->n_seed);
        uint64_t raw[11];
        CHECK(g && ga__random_raw(g, 11, raw) == GA_OK, "seed %d: %s", i, ga_last_error_message());
        for (int j = 0; g && j < 11; j++)
            CHECK(raw[j] == c->raw[j], "seed %d: random_raw[%d] %016llx, NumPy's %016llx", i, j,
                  (unsigned long long)raw[j], (unsigned long long)c->raw[j]);
        if (g) check_state(g, &c->after_raw, "random_raw, seed", i);
        CHECK(ga_random_bit_generator(g) == GA_PHILOX4X64, "ga_random_philox is Philox4x64");
        ga_generator_release(g);
    }
}

TEST(random_philox_random_matches_numpy)
{
    for (int i = 0; i < COUNT(STREAM_CASES); i++) {
        const stream_case *c = &STREAM_CASES[i];
        ga_generator *g64 = ga_random_philox(c->seed, c->n_seed), *g32 = ga_random_philox(c->seed, c->n_seed);
        ga_generator *m = ga_random_philox(c->seed, c->n_seed);
        double d[9], b[3];
        float f[9], a[3], cc[3];
        CHECK_OK(ga__random_double(g64, 9, d));
        CHECK_OK(ga__random_float(g32, 9, f));
        for (int j = 0; j < 9; j++) {
            CHECK(d[j] == c->f64[j], "seed %d: random()[%d] %a, NumPy's %a", i, j, d[j], c->f64[j]);
            CHECK(f[j] == c->f32[j], "seed %d: random(float32)[%d] %a, NumPy's %a", i, j, f[j], c->f32[j]);
        }
        /* float32 takes NumPy's buffered half-words; float64 whole words */
        CHECK_OK(ga__random_float(m, 3, a));
        CHECK_OK(ga__random_double(m, 3, b));
        CHECK_OK(ga__random_float(m, 3, cc));
        for (int j = 0; j < 3; j++)
            CHECK(a[j] == c->mix_a[j] && b[j] == c->mix_b[j] && cc[j] == c->mix_c[j],
                  "seed %d: mixed draws [%d]: %a %a %a, NumPy's %a %a %a", i, j, a[j], b[j], cc[j], c->mix_a[j],
                  c->mix_b[j], c->mix_c[j]);
        check_state(m, &c->after_mix, "mixed draws, seed", i);
        ga_generator_release(g64), ga_generator_release(g32), ga_generator_release(m);
    }
}

TEST(random_philox_integers_pow2_matches_numpy)
{
    for (int i = 0; i < COUNT(INTEGERS_CASES); i++) {
        const integers_case *c = &INTEGERS_CASES[i];
        const uint32_t seed = 1234;
        ga_generator *g = ga_random_philox(&seed, 1);
        unsigned char out[13 * 8];
        size_t size = ga_dtype_itemsize(c->dtype);
        if (ga__random_integers_pow2(g, c->dtype, c->low, c->k, 13, out) != GA_OK) {
            CHECK(0, "integers(%lld, %lld + 2**%d, %s): %s", (long long)c->low, (long long)c->low, c->k,
                  ga__dtype_names[c->dtype], ga_last_error_message());
            ga_clear_error();
        } else {
            for (int j = 0; j < 13; j++) {
                uint64_t v = 0;
                memcpy(&v, out + (size_t)j * size, size);
                CHECK(v == c->values[j], "integers(%lld, %lld + 2**%d, %s)[%d] = %llx, NumPy's %llx",
                      (long long)c->low, (long long)c->low, c->k, ga__dtype_names[c->dtype], j,
                      (unsigned long long)v, (unsigned long long)c->values[j]);
            }
            check_state(g, &c->after, "integers case", i);
        }
        ga_generator_release(g);
    }
}

TEST(random_philox_advance_and_jumped_match_numpy)
{
    const uint32_t seed = 7;
    for (int i = 0; i < COUNT(ADVANCE_CASES); i++) {
        const advance_case *c = &ADVANCE_CASES[i];
        ga_generator *g = ga_random_philox(&seed, 1), *j = NULL;
        uint64_t raw[5];
        CHECK_OK(ga__random_raw(g, 3, raw));
        ga_random_state before;
        CHECK_OK(ga_random_get_state(g, &before));
        if (c->jumped) {
            j = ga_random_jumped(g, c->jumps);
            CHECK(j != NULL, "jumped: %s", ga_last_error_message());
            ga_random_state still;
            CHECK_OK(ga_random_get_state(g, &still));
            CHECK(same_state(&still, &before), "jumped leaves its generator as it was");
        } else {
            CHECK_OK(ga_random_advance(g, c->delta));
        }
        ga_generator *t = j ? j : g;
        if (t) {
            check_state(t, &c->after, c->jumped ? "jumped" : "advance", i);
            CHECK_OK(ga__random_raw(t, 5, raw));
            CHECK(memcmp(raw, c->raw, sizeof raw) == 0, "case %d: the draws after advance/jumped differ from NumPy's",
                  i);
        }
        ga_generator_release(j);
        ga_generator_release(g);
    }
}

TEST(random_philox_spawn_matches_numpy)
{
    for (int i = 0; i < COUNT(SPAWN_CASES); i++) {
        const spawn_case *c = &SPAWN_CASES[i];
        ga_generator *g = ga_random_philox(c->seed, c->n_seed), *kids[4] = {NULL, NULL, NULL, NULL};
        CHECK_OK(ga_random_spawn(g, 2, kids));
        CHECK_OK(ga_random_spawn(g, 0, NULL));
        CHECK_OK(ga_random_spawn(g, 2, kids + 2));
        for (int k = 0; k < 4; k++) {
            uint64_t raw[6];
            CHECK(kids[k] && ga__random_raw(kids[k], 6, raw) == GA_OK && memcmp(raw, c->raw[k], sizeof raw) == 0,
                  "seed case %d: child %d's raw stream differs from NumPy's", i, k);
            CHECK(ga_random_bit_generator(kids[k]) == GA_PHILOX4X64, "children keep the bit generator");
            ga_generator_release(kids[k]);
        }
        ga_generator_release(g);
    }
    const uint32_t seed = 12345;
    ga_generator *g = ga_random_philox(&seed, 1), *kids[3] = {NULL, NULL, NULL}, *grand[2] = {NULL, NULL};
    CHECK_OK(ga_random_spawn(g, 3, kids));
    CHECK_OK(ga_random_spawn(kids[2], 2, grand));
    for (int k = 0; k < 2; k++) {
        uint64_t raw[4];
        CHECK(grand[k] && ga__random_raw(grand[k], 4, raw) == GA_OK && memcmp(raw, GRANDCHILD_RAW[k], sizeof raw) == 0,
              "grandchild %d's raw stream differs from NumPy's", k);
        ga_generator_release(grand[k]);
    }
    for (int k = 0; k < 3; k++) ga_generator_release(kids[k]);
    ga_generator_release(g);
}

/* get_state then set_state on another generator continues the stream,
   buffer and half-word included; advance empties the buffer. */
TEST(random_philox_state_round_trip)
{
    const uint32_t seed = 99, other = 100;
    ga_generator *a = ga_random_philox(&seed, 1), *b = ga_random_philox(&other, 1);
    float f;
    uint64_t x[6], y[6];
    CHECK_OK(ga__random_float(a, 1, &f)); /* leaves a half-word and three buffered words */
    ga_random_state s;
    CHECK_OK(ga_random_get_state(a, &s));
    CHECK(s.has_uint32 == 1 && s.buffer_pos == 1, "one float32 leaves has_uint32 1 and buffer_pos 1");
    CHECK_OK(ga_random_set_state(b, &s));
    CHECK_OK(ga__random_raw(a, 6, x));
    CHECK_OK(ga__random_raw(b, 6, y));
    CHECK(memcmp(x, y, sizeof x) == 0, "a set state continues the same stream");
    const uint64_t zero[4] = {0, 0, 0, 0};
    CHECK_OK(ga_random_advance(a, zero));
    CHECK_OK(ga_random_get_state(a, &s));
    CHECK(s.buffer_pos == 4 && s.has_uint32 == 0 && !s.buffer[0] && !s.uinteger, "advance(0) empties the buffer");
    ga_generator_release(a), ga_generator_release(b);
}

/* Counter carries across every word: the next block after
   2**256 - 1 is block 0. */
TEST(random_philox_counter_carries)
{
    const uint32_t seed = 3;
    ga_generator *g = ga_random_philox(&seed, 1);
    ga_random_state s;
    CHECK_OK(ga_random_get_state(g, &s));
    s.counter[0] = s.counter[1] = s.counter[2] = s.counter[3] = UINT64_MAX;
    CHECK_OK(ga_random_set_state(g, &s));
    uint64_t raw[4], want[4];
    CHECK_OK(ga__random_raw(g, 4, raw));
    const uint64_t zero[4] = {0, 0, 0, 0};
    ga__philox4x64(zero, s.key, want);
    CHECK(memcmp(raw, want, sizeof raw) == 0, "the counter wraps to 0");
    CHECK_OK(ga_random_get_state(g, &s));
    CHECK(!s.counter[0] && !s.counter[1] && !s.counter[2] && !s.counter[3], "the counter is 0 after wrapping");
    ga_generator_release(g);
}

/* ---- Philox4x32: the default -------------------------------------------- */

TEST(random_philox4x32_known_answers)
{
    for (int i = 0; i < COUNT(PHILOX4X32_KAT); i++) {
        uint32_t out[4];
        ga__philox4x32(PHILOX4X32_KAT[i].ctr, PHILOX4X32_KAT[i].key, out);
        CHECK(memcmp(out, PHILOX4X32_KAT[i].expected, sizeof out) == 0,
              "philox4x32_10 vector %d: %08x %08x %08x %08x, Random123's %08x %08x %08x %08x", i, out[0], out[1],
              out[2], out[3], PHILOX4X32_KAT[i].expected[0], PHILOX4X32_KAT[i].expected[1],
              PHILOX4X32_KAT[i].expected[2], PHILOX4X32_KAT[i].expected[3]);
    }
}

TEST(random_default_rng_seeding)
{
    for (int i = 0; i < COUNT(DEFAULT_SEED_CASES); i++) {
        const default_seed_case *c = &DEFAULT_SEED_CASES[i];
        ga_generator *g = ga_random_default_rng(c->seed, c->n_seed);
        ga_random_state s;
        CHECK(g && ga_random_get_state(g, &s) == GA_OK, "seed case %d: %s", i, ga_last_error_message());
        if (!g) continue;
        CHECK(s.bit_generator == GA_PHILOX4X32, "default_rng is Philox4x32");
        CHECK(s.key[0] == ((uint64_t)c->state[1] << 32 | c->state[0]) && s.key[1] == 0,
              "seed case %d: the key is generate_state(4)'s words 0 and 1", i);
        CHECK(s.counter[0] == 0 && s.counter[1] == ((uint64_t)c->state[3] << 32 | c->state[2]) && !s.counter[2] &&
                  !s.counter[3],
              "seed case %d: the counter's upper half is generate_state(4)'s words 2 and 3", i);
        CHECK(s.buffer_pos == 0 && !s.has_uint32, "Philox4x32 starts at its block's first word, no buffer");
        ga_generator_release(g);
    }
}

/* The stream's contract: value i is word (p + i) % 4 of the block at
   counter + (p + i) / 4, p the state's buffer_pos; the counter and p move
   past the words used, so that draws are split-invariant. */
TEST(random_philox4x32_stream)
{
    const uint32_t seed = 42;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state s0, s1;
    CHECK_OK(ga_random_get_state(g, &s0));
    uint32_t v[10], w[3];
    CHECK_OK(ga__random_uint32_4x32(g, 10, v));
    CHECK_OK(ga_random_get_state(g, &s1));
    CHECK(s1.counter[0] == s0.counter[0] + 2 && s1.counter[1] == s0.counter[1] && s1.buffer_pos == 2,
          "10 values: two whole blocks and two words of the third");
    const uint32_t key[2] = {(uint32_t)s0.key[0], (uint32_t)(s0.key[0] >> 32)};
    for (int b = 0; b < 3; b++) {
        uint32_t ctr[4] = {(uint32_t)(s0.counter[0] + (uint64_t)b), 0, (uint32_t)s0.counter[1],
                           (uint32_t)(s0.counter[1] >> 32)}, out[4];
        ga__philox4x32(ctr, key, out);
        for (int j = 0; j < 4 && 4 * b + j < 10; j++)
            CHECK(v[4 * b + j] == out[j], "value %d is word %d of block %d", 4 * b + j, j, b);
    }
    /* split-invariant: n then m values are the n + m of one draw, for every split of 0..13 */
    uint32_t whole[13];
    for (int n = 0; n <= 13; n++) {
        ga_generator *a = ga_random_default_rng(&seed, 1), *b = ga_random_default_rng(&seed, 1);
        uint32_t parts[13] = {0};
        ga_random_state sa, sb;
        bool ok = ga__random_uint32_4x32(a, 13, whole) == GA_OK && ga__random_uint32_4x32(b, n, parts) == GA_OK &&
                  ga__random_uint32_4x32(b, 13 - n, parts + n) == GA_OK && ga_random_get_state(a, &sa) == GA_OK &&
                  ga_random_get_state(b, &sb) == GA_OK;
        CHECK(ok && memcmp(whole, parts, sizeof whole) == 0 && sa.counter[0] == sb.counter[0] &&
                  sa.buffer_pos == sb.buffer_pos,
              "%d values then %d are the 13 of one draw, and leave the same state", n, 13 - n);
        ga_generator_release(a), ga_generator_release(b);
    }
    /* a state read mid-block and set on another generator continues the stream */
    ga_generator *c = ga_random_default_rng(&seed, 1);
    ga_random_state mid;
    uint32_t x[3];
    CHECK(c && ga_random_get_state(g, &mid) == GA_OK && ga_random_set_state(c, &mid) == GA_OK &&
              ga__random_uint32_4x32(c, 3, x) == GA_OK,
          "set a mid-block state: %s", ga_last_error_message());
    ga_generator_release(c);
    CHECK_OK(ga__random_uint32_4x32(g, 3, w));
    CHECK(memcmp(w, x, sizeof w) == 0, "the state's word position carries the stream on");
    /* 13 words drawn: the counter is 3 blocks on, at word 1; advance by -1
       (mod 2**128) goes one block back, to its first word */
    const uint64_t back[4] = {UINT64_MAX, UINT64_MAX, 0, 0};
    CHECK_OK(ga_random_advance(g, back));
    CHECK_OK(ga__random_uint32_4x32(g, 3, w));
    CHECK(memcmp(w, v + 8, sizeof(uint32_t) * 2) == 0, "advance(2**128 - 1) goes one block back, to its first word");
    /* jumped: the counter's upper half plus jumps */
    ga_generator *j = ga_random_jumped(g, 5);
    ga_random_state sj, sg;
    CHECK(j && ga_random_get_state(j, &sj) == GA_OK && ga_random_get_state(g, &sg) == GA_OK, "jumped: %s",
          ga_last_error_message());
    if (j) CHECK(sj.counter[0] == sg.counter[0] && sj.counter[1] == sg.counter[1] + 5, "jumped(5) adds 5 * 2**64");
    ga_generator_release(j);
    ga_generator_release(g);
}

TEST(random_os_entropy_seeds_differ)
{
    ga_generator *a = ga_random_default_rng(NULL, 0), *b = ga_random_philox(NULL, 0);
    ga_random_state sa, sb;
    CHECK(a && b, "seeding from the OS: %s", ga_last_error_message());
    ga_generator *c = ga_random_philox(NULL, 0);
    if (a && b && c) {
        CHECK_OK(ga_random_get_state(b, &sa));
        CHECK_OK(ga_random_get_state(c, &sb));
        CHECK(sa.key[0] != sb.key[0] || sa.key[1] != sb.key[1], "two OS seeds give two keys");
        ga_generator *kids[2] = {NULL, NULL};
        CHECK_OK(ga_random_spawn(a, 2, kids));
        CHECK(ga_random_bit_generator(kids[0]) == GA_PHILOX4X32, "a default generator's children are Philox4x32");
        ga_generator_release(kids[0]), ga_generator_release(kids[1]);
    }
    ga_generator_release(a), ga_generator_release(b), ga_generator_release(c);
}

TEST(random_retain_release)
{
    const uint32_t seed = 1;
    ga_generator *g = ga_random_philox(&seed, 1);
    ga_generator *volatile kept = ga_generator_retain(g); /* volatile: gcc cannot see the count */
    CHECK(kept == g, "retain returns its argument");
    ga_generator_release(g);
    uint64_t x;
    CHECK_OK(ga__random_raw(kept, 1, &x)); /* still alive: one reference left (ASan would see) */
    ga_generator_release(kept);
    ga_generator_release(NULL);
    CHECK(ga_generator_retain(NULL) == NULL, "retain(NULL) is NULL");
}

/* ---- errors ------------------------------------------------------------- */

TEST(random_errors)
{
    const uint32_t seed = 5;
    ga_generator *g = ga_random_philox(&seed, 1), *d = ga_random_default_rng(&seed, 1), *kids[1] = {NULL};
    ga_random_state s;
    const uint64_t delta[4] = {1, 0, 0, 0};
    CHECK_ERROR(ga_random_philox(&seed, -1) == NULL, GA_ERROR_VALUE, "ga_random_philox: n must be non-negative");
    CHECK_ERROR(ga_random_default_rng(&seed, -2) == NULL, GA_ERROR_VALUE, "ga_random_default_rng: n must be");
    CHECK_ERROR(ga_random_spawn(NULL, 1, kids) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_spawn: g is NULL");
    CHECK_ERROR(ga_random_spawn(g, -1, kids) != GA_OK, GA_ERROR_VALUE,
                "ga_random_spawn: n_children must be non-negative");
    CHECK_ERROR(ga_random_spawn(g, 1, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_spawn: out is NULL");
    CHECK_ERROR(ga_random_jumped(NULL, 1) == NULL, GA_ERROR_NULL_INPUT, "ga_random_jumped: g is NULL");
    CHECK_ERROR(ga_random_advance(NULL, delta) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_advance: g is NULL");
    CHECK_ERROR(ga_random_advance(g, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_advance: delta is NULL");
    CHECK_ERROR(ga_random_get_state(NULL, &s) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_get_state: g is NULL");
    CHECK_ERROR(ga_random_get_state(g, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_get_state: state is NULL");
    CHECK_ERROR(ga_random_set_state(NULL, &s) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_set_state: g is NULL");
    CHECK_ERROR(ga_random_set_state(g, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_random_set_state: state is NULL");

    /* set_state: NumPy's words for another bit generator's state */
    ga_random_state good, bad;
    CHECK_OK(ga_random_get_state(g, &good));
    bad = good, bad.bit_generator = GA_PHILOX4X32;
    CHECK_ERROR(ga_random_set_state(g, &bad) != GA_OK, GA_ERROR_VALUE,
                "ga_random_set_state: state must be for a Philox PRNG");
    bad = good, bad.bit_generator = (ga_bit_generator)7;
    CHECK_ERROR(ga_random_set_state(g, &bad) != GA_OK, GA_ERROR_VALUE, "state must be for a Philox PRNG");
    bad = good, bad.buffer_pos = 5;
    CHECK_ERROR(ga_random_set_state(g, &bad) != GA_OK, GA_ERROR_VALUE, "buffer_pos must be in [0, 4], got 5");
    bad = good, bad.buffer_pos = -1;
    CHECK_ERROR(ga_random_set_state(g, &bad) != GA_OK, GA_ERROR_VALUE, "buffer_pos must be in [0, 4], got -1");
    bad = good, bad.has_uint32 = 2;
    CHECK_ERROR(ga_random_set_state(g, &bad) != GA_OK, GA_ERROR_VALUE, "has_uint32 must be 0 or 1, got 2");
    CHECK_OK(ga_random_get_state(d, &good));
    bad = good, bad.bit_generator = GA_PHILOX4X64;
    CHECK_ERROR(ga_random_set_state(d, &bad) != GA_OK, GA_ERROR_VALUE, "state must be for a Philox4x32 PRNG");
    bad = good, bad.counter[2] = 1;
    CHECK_ERROR(ga_random_set_state(d, &bad) != GA_OK, GA_ERROR_VALUE, "Philox4x32 has a 128-bit counter");
    bad = good, bad.buffer_pos = 4;
    CHECK_ERROR(ga_random_set_state(d, &bad) != GA_OK, GA_ERROR_VALUE, "buffer_pos (the next word's place in its block) in [0, 3]");
    ga_random_state after;
    CHECK_OK(ga_random_get_state(d, &after));
    CHECK(same_state(&after, &good), "a refused state changes nothing");

    /* the host draws */
    uint64_t raw[2];
    unsigned char bytes[8];
    CHECK_ERROR(ga__random_raw(NULL, 1, raw) != GA_OK, GA_ERROR_NULL_INPUT, "ga__random_raw: g is NULL");
    CHECK_ERROR(ga__random_raw(g, 1, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga__random_raw: out is NULL");
    CHECK_ERROR(ga__random_raw(g, -1, raw) != GA_OK, GA_ERROR_VALUE, "negative dimensions are not allowed");
    CHECK_ERROR(ga__random_raw(d, 1, raw) != GA_OK, GA_ERROR_NOT_IMPLEMENTED, "NumPy's Philox's only");
    CHECK_ERROR(ga__random_uint32_4x32(g, 1, (uint32_t *)bytes) != GA_OK, GA_ERROR_VALUE, "not Philox4x32");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_FLOAT32, 0, 1, 1, bytes) != GA_OK, GA_ERROR_TYPE,
                "dtype must be bool or integer");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_UINT8, 0, 9, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "high is out of bounds for uint8");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_UINT8, 1, 8, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "high is out of bounds for uint8");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_UINT8, -1, 1, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "low is out of bounds for uint8");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_INT8, -129, 1, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "low is out of bounds for int8");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_INT8, 0, 8, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "high is out of bounds for int8");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_BOOL, 1, 1, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "high is out of bounds for bool");
    CHECK_ERROR(ga__random_integers_pow2(g, GA_INT64, INT64_MIN + 1, 64, 1, bytes) != GA_OK, GA_ERROR_VALUE,
                "high is out of bounds for int64");
    CHECK_OK(ga__random_integers_pow2(g, GA_INT64, INT64_MIN, 64, 1, bytes));
    CHECK_OK(ga__random_integers_pow2(g, GA_UINT64, 0, 64, 1, bytes));
    ga_generator_release(g), ga_generator_release(d);
}

TEST(random_device_draw_errors_before_the_device)
{
    const uint32_t seed = 9;
    const int64_t shape[1] = {4};
    ga_generator *g = ga_random_default_rng(&seed, 1), *x = ga_random_philox(&seed, 1);
    CHECK_ERROR(ga_random_random(g, 1, shape, GA_INT32) == NULL, GA_ERROR_TYPE,
                "ga_random_random: Unsupported dtype \"int32\" for random");
    CHECK_ERROR(ga_random_random(g, 1, shape, GA_FLOAT16) == NULL, GA_ERROR_TYPE, "Unsupported dtype \"float16\"");
    CHECK_ERROR(ga_random_standard_normal(g, 1, shape, GA_COMPLEX64) == NULL, GA_ERROR_TYPE,
                "ga_random_standard_normal: Unsupported dtype \"complex64\" for standard_normal");
    CHECK_ERROR(ga_random_standard_normal(x, 1, shape, GA_FLOAT64) == NULL, GA_ERROR_NOT_IMPLEMENTED,
                "draws of the Philox (NumPy) bit generator on the device are not implemented yet");
    CHECK_ERROR(ga_random_integers(x, ga_int(0), ga_int(10), 1, shape, GA_INT64, false) == NULL, GA_ERROR_NOT_IMPLEMENTED,
                "over a range that is not a power of two are not implemented on the device yet");
    CHECK_ERROR(ga_random_bytes(x, 8) == NULL, GA_ERROR_NOT_IMPLEMENTED, "ga_random_bytes: draws of the Philox");
    CHECK_ERROR(ga_random_seed(&seed, -1) != GA_OK, GA_ERROR_VALUE, "ga_random_seed: n must be non-negative");
    CHECK_OK(ga_random_seed(&seed, 1));
    CHECK_OK(ga_random_seed(NULL, 0));
    ga_generator_release(g), ga_generator_release(x);
}

/* The device draws of NumPy's Philox move the state by whole counts of
   next_uint64 or next_uint32 calls at once: the same state as the calls. */
TEST(random_philox_skips_are_numpys_calls)
{
    const uint32_t seed = 99;
    for (int pre = 0; pre < 11; pre++)
        for (uint64_t t = 0; t < 23; t++)
            for (int bits = 32; bits <= 64; bits += 32) {
                ga_generator *a = ga_random_philox(&seed, 1), *b = ga_random_philox(&seed, 1);
                for (int i = 0; i < pre; i++) /* every buffer place, a kept half or not */
                    ga__philox4x64_next32(&a->state), ga__philox4x64_next32(&b->state);
                for (uint64_t i = 0; i < t; i++) {
                    if (bits == 64) ga__philox4x64_next64(&a->state);
                    else ga__philox4x64_next32(&a->state);
                }
                if (bits == 64) ga__philox4x64_skip64(&b->state, t);
                else ga__philox4x64_skip32(&b->state, t);
                CHECK(same_state(&a->state, &b->state), "%d then a skip of %llu %d-bit values is as many calls", pre,
                      (unsigned long long)t, bits);
                ga_generator_release(a), ga_generator_release(b);
            }
}

/* ---- device draws ------------------------------------------------------- */

/* The host's stream after `skip` words: n words of the default generator
   seeded by `seed`. */
static uint32_t *host_words(uint32_t seed, int skip, int64_t n)
{
    ga_generator *g = ga_random_default_rng(&seed, 1);
    uint32_t *w = malloc(sizeof(uint32_t) * (size_t)(n + 4)), first[4];
    if (!g || !w || ga__random_uint32_4x32(g, skip, first) != GA_OK || ga__random_uint32_4x32(g, n, w) != GA_OK) {
        free(w);
        w = NULL;
    }
    ga_generator_release(g);
    return w;
}

/* A generator seeded by `seed` that has drawn `skip` words on the host. */
static ga_generator *skipped_rng(uint32_t seed, int skip)
{
    ga_generator *g = ga_random_default_rng(&seed, 1);
    uint32_t first[4];
    if (g && ga__random_uint32_4x32(g, skip, first) != GA_OK) ga_generator_release(g), g = NULL;
    return g;
}

/* The state g would have after `words` more words, and g's. */
static bool state_moved_by(const ga_random_state *before, const ga_generator *g, uint64_t words)
{
    ga_random_state want = *before, got;
    ga__random_4x32_skip(&want, words);
    return ga_random_get_state(g, &got) == GA_OK && same_state(&want, &got);
}

/* a downloaded into a new host buffer (NULL on failure). */
static void *fetch(const ga_array *a)
{
    void *h = malloc(ga_nbytes(a) ? ga_nbytes(a) : 1);
    if (h && !download(a, h)) free(h), h = NULL;
    return h;
}

static const int64_t word_counts[] = {0, 1, 3, 4, 5, 1000, (1 << 20) + 3};

DEVICE_TEST(random_device_words_are_the_hosts)
{
    for (int c = 0; c < COUNT(word_counts); c++)
        for (int skip = 0; skip < 4; skip++) {
            const int64_t n = word_counts[c];
            const uint32_t seed = 1000u + (uint32_t)skip;
            uint32_t *want = host_words(seed, skip, n);
            ga_generator *g = skipped_rng(seed, skip);
            ga_random_state before;
            CHECK(want && g && ga_random_get_state(g, &before) == GA_OK, "setup: %s", ga_last_error_message());
            if (!want || !g) continue;
            poison_next((size_t)n * 4);
            ga_array *a = ga_random_bytes(g, 4 * n);
            CHECK(a && ga_size(a) == 4 * n && ga_dtype_of(a) == GA_UINT8 && ga_ndim(a) == 1, "bytes(%lld): %s",
                  (long long)(4 * n), ga_last_error_message());
            uint32_t *got = a ? fetch(a) : NULL;
            int64_t bad = -1;
            for (int64_t i = 0; got && i < n && bad < 0; i++)
                if (got[i] != want[i]) bad = i;
            CHECK(got && bad < 0, "%lld words from word %d: word %lld is %08x, the host's %08x", (long long)n, skip,
                  (long long)bad, got && bad >= 0 ? got[bad] : 0, bad >= 0 ? want[bad] : 0);
            CHECK(state_moved_by(&before, g, (uint64_t)n), "%lld words from word %d move the state by %lld words",
                  (long long)n, skip, (long long)n);
            free(got), free(want);
            ga_release(a);
            ga_generator_release(g);
        }
}

/* bytes(length) keeps the first length bytes of ceil(length / 4) words. */
DEVICE_TEST(random_device_bytes_take_whole_words)
{
    for (int64_t len = 0; len < 40; len++)
        for (int skip = 0; skip < 4; skip++) {
            const uint32_t seed = 77;
            uint32_t *want = host_words(seed, skip, (len + 3) / 4 + 1);
            ga_generator *g = skipped_rng(seed, skip);
            ga_random_state before;
            if (!want || !g || ga_random_get_state(g, &before) != GA_OK) {
                CHECK(0, "setup: %s", ga_last_error_message());
                free(want), ga_generator_release(g);
                continue;
            }
            poison_next((size_t)len);
            ga_array *a = ga_random_bytes(g, len);
            unsigned char *got = a ? fetch(a) : NULL;
            CHECK(got && ga_size(a) == len && (len == 0 || memcmp(got, want, (size_t)len) == 0),
                  "bytes(%lld) from word %d are the words' first bytes", (long long)len, skip);
            CHECK(state_moved_by(&before, g, (uint64_t)(len + 3) / 4), "bytes(%lld) take %lld words", (long long)len,
                  (long long)(len + 3) / 4);
            free(got), free(want);
            ga_release(a);
            ga_generator_release(g);
        }
}

static const int64_t value_counts[] = {0, 1, 2, 3, 7, 1000, (1 << 18) + 5};

DEVICE_TEST(random_device_random_is_the_hosts_formula)
{
    for (int t = 0; t < 2; t++)
        for (int c = 0; c < COUNT(value_counts); c++)
            for (int skip = 0; skip < 4; skip++) {
                const ga_dtype dt = t ? GA_FLOAT64 : GA_FLOAT32;
                const int64_t n = value_counts[c], words = t ? 2 * n : n;
                const uint32_t seed = 31u * (uint32_t)c + (uint32_t)skip;
                uint32_t *w = host_words(seed, skip, words);
                ga_generator *g = skipped_rng(seed, skip);
                ga_random_state before;
                if (!w || !g || ga_random_get_state(g, &before) != GA_OK) {
                    CHECK(0, "setup: %s", ga_last_error_message());
                    free(w), ga_generator_release(g);
                    continue;
                }
                const int64_t shape[2] = {n > 1 ? 2 : 1, n > 1 ? n / 2 : n}; /* 2-d when it can */
                const int ndim = n > 1 && n % 2 == 0 ? 2 : 1;
                poison_next((size_t)n * (t ? 8 : 4));
                ga_array *a = ga_random_random(g, ndim, ndim == 2 ? shape : &n, dt);
                CHECK(a && ga_size(a) == n && ga_dtype_of(a) == dt, "random(%lld, %s): %s", (long long)n,
                      ga_dtype_name(dt), ga_last_error_message());
                void *got = a ? fetch(a) : NULL;
                int64_t bad = -1;
                for (int64_t i = 0; got && i < n && bad < 0; i++) {
                    if (t) {
                        const uint64_t u = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
                        const double x = (double)(u >> 11) * (1.0 / 9007199254740992.0);
                        if (memcmp(&x, (double *)got + i, 8) != 0) bad = i;
                    } else {
                        const float x = (float)(w[i] >> 8) * (1.0f / 16777216.0f);
                        if (memcmp(&x, (float *)got + i, 4) != 0) bad = i;
                    }
                }
                CHECK(got && bad < 0, "random(%lld, %s) from word %d: value %lld differs from the host's",
                      (long long)n, ga_dtype_name(dt), skip, (long long)bad);
                CHECK(state_moved_by(&before, g, (uint64_t)words), "random(%lld, %s) takes %lld words", (long long)n,
                      ga_dtype_name(dt), (long long)words);
                free(got), free(w);
                ga_release(a);
                ga_generator_release(g);
            }
}

/* draw(n) then draw(m) is draw(n + m), for every draw and dtype. bytes(n)
   takes whole 32-bit words and drops the rest of the last one, as NumPy's
   Generator.bytes: bytes(n) then bytes(m) is bytes(4 * ceil(n / 4) + m) less
   the dropped bytes. */
DEVICE_TEST(random_device_draws_are_split_invariant)
{
    static const int64_t splits[][2] = {{1, 6}, {3, 1000}, {5, 77777}, {1000, 3}, {2, 2}, {0, 9}, {33, 0}};
    for (int kind = 0; kind < 5; kind++)
        for (int c = 0; c < COUNT(splits); c++) {
            const uint32_t seed = 4242;
            const int64_t n = splits[c][0], m = splits[c][1];
            const int64_t n_taken = kind == 4 ? (n + 3) / 4 * 4 : n, nm = n_taken + m;
            const ga_dtype dt = kind == 4 ? GA_UINT8 : kind & 1 ? GA_FLOAT64 : GA_FLOAT32;
            ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
            ga_array *parts[2] = {NULL, NULL}, *whole = NULL;
            for (int k = 0; k < 3; k++) {
                ga_generator *gen = k < 2 ? g : h;
                const int64_t len = k == 0 ? n : k == 1 ? m : nm;
                ga_array *a = kind == 4   ? ga_random_bytes(gen, len)
                              : kind < 2 ? ga_random_random(gen, 1, &len, dt)
                                         : ga_random_standard_normal(gen, 1, &len, dt);
                if (k < 2) parts[k] = a;
                else whole = a;
            }
            const size_t isz = ga_dtype_itemsize(dt);
            unsigned char *p0 = parts[0] ? fetch(parts[0]) : NULL, *p1 = parts[1] ? fetch(parts[1]) : NULL;
            unsigned char *all = whole ? fetch(whole) : NULL;
            CHECK(p0 && p1 && all && memcmp(all, p0, (size_t)n * isz) == 0 &&
                      memcmp(all + (size_t)n_taken * isz, p1, (size_t)m * isz) == 0,
                  "draw %d (%s): %lld values then %lld are the %lld of one draw (%s)", kind, ga_dtype_name(dt),
                  (long long)n, (long long)m, (long long)nm, ga_last_error_message());
            ga_random_state sg, sh;
            CHECK(ga_random_get_state(g, &sg) == GA_OK && ga_random_get_state(h, &sh) == GA_OK && same_state(&sg, &sh),
                  "draw %d: the split draws leave the state of the whole", kind);
            free(p0), free(p1), free(all);
            ga_release(parts[0]), ga_release(parts[1]), ga_release(whole);
            ga_generator_release(g), ga_generator_release(h);
        }
}

/* The normal quantile to about 1e-15 for 0 < p < 1: Acklam's rational
   approximation, then two Halley steps on erfc. */
static double ref_normcdfinv(double p)
{
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};
    double x;
    if (p < 0.02425 || p > 1 - 0.02425) {
        const double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        if (p > 0.5) x = -x;
    } else {
        const double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    for (int i = 0; i < 2; i++) {
        const double e = 0.5 * erfc(-x / 1.4142135623730951) - p;
        const double u = e * 2.5066282746310002 * exp(x * x / 2);
        x = x - u / (1 + x * u / 2);
    }
    return x;
}

/* The normal of uniform index k of `bits` bits (24 or 53), as the kernels
   take it: the mirror of the lower half for the upper. */
static double ref_normal(uint64_t k, int bits)
{
    const uint64_t half = (uint64_t)1 << (bits - 1), top = ((uint64_t)1 << bits) - 1;
    const double scale = ldexp(1.0, -bits);
    return k < half ? ref_normcdfinv(((double)k + 0.5) * scale) : -ref_normcdfinv(((double)(top - k) + 0.5) * scale);
}

static uint64_t normal_index(const uint32_t *w, int64_t i, int f64)
{
    return f64 ? ((uint64_t)w[2 * i + 1] << 32 | w[2 * i]) >> 11 : w[i] >> 8;
}

static const uint32_t *sort_words;
static int sort_f64;
static int by_index(const void *x, const void *y)
{
    const uint64_t a = normal_index(sort_words, *(const int64_t *)x, sort_f64);
    const uint64_t b = normal_index(sort_words, *(const int64_t *)y, sort_f64);
    return a < b ? -1 : a > b;
}

DEVICE_TEST(random_device_standard_normal_values)
{
    for (int t = 0; t < 2; t++)
        for (int skip = 0; skip < 4; skip++) {
            const ga_dtype dt = t ? GA_FLOAT64 : GA_FLOAT32;
            const int64_t n = 4099, words = t ? 2 * n : n;
            const uint32_t seed = 555u + (uint32_t)skip;
            uint32_t *w = host_words(seed, skip, words);
            ga_generator *g = skipped_rng(seed, skip);
            int64_t *order = malloc(sizeof(int64_t) * (size_t)n);
            ga_array *a = g ? ga_random_standard_normal(g, 1, &n, dt) : NULL;
            void *got = a ? fetch(a) : NULL;
            CHECK(w && g && order && got, "standard_normal(%lld, %s): %s", (long long)n, ga_dtype_name(dt),
                  ga_last_error_message());
            if (w && order && got) {
                int64_t bad = -1, sign_bad = -1, order_bad = -1;
                double worst = 0;
                for (int64_t i = 0; i < n; i++) {
                    const uint64_t k = normal_index(w, i, t);
                    const double x = t ? ((double *)got)[i] : ((float *)got)[i];
                    const double want = ref_normal(k, t ? 53 : 24);
                    const double err = fabs(x - want) / (fabs(want) > 1 ? fabs(want) : 1);
                    if (err > worst) worst = err;
                    if (!(err <= (t ? 1e-13 : 4e-6)) && bad < 0) bad = i;
                    const bool upper = k >= (t ? (uint64_t)1 << 52 : 1u << 23);
                    if ((upper ? !(x > 0) : !(x < 0)) && sign_bad < 0) sign_bad = i;
                    order[i] = i;
                }
                CHECK(bad < 0, "standard_normal %s from word %d: value %lld is off the quantile of its uniform "
                      "(largest error %g)", ga_dtype_name(dt), skip, (long long)bad, worst);
                CHECK(sign_bad < 0, "standard_normal %s: value %lld has the sign of its uniform's half",
                      ga_dtype_name(dt), (long long)sign_bad);
                sort_words = w, sort_f64 = t;
                qsort(order, (size_t)n, sizeof *order, by_index);
                for (int64_t i = 1; i < n && order_bad < 0; i++) {
                    const double x0 = t ? ((double *)got)[order[i - 1]] : ((float *)got)[order[i - 1]];
                    const double x1 = t ? ((double *)got)[order[i]] : ((float *)got)[order[i]];
                    if (x1 < x0) order_bad = i;
                }
                CHECK(order_bad < 0, "standard_normal %s: the values are in the order of their uniforms",
                      ga_dtype_name(dt));
            }
            free(w), free(order), free(got);
            ga_release(a);
            ga_generator_release(g);
        }
}

DEVICE_TEST(random_device_standard_normal_moments)
{
    const int64_t n = (int64_t)1 << 22;
    for (int t = 0; t < 2; t++) {
        const ga_dtype dt = t ? GA_FLOAT64 : GA_FLOAT32;
        ga_generator *g = ga_random_default_rng(NULL, 0);
        ga_array *a = g ? ga_random_standard_normal(g, 1, &n, dt) : NULL;
        void *got = a ? fetch(a) : NULL;
        CHECK(got != NULL, "standard_normal(2**22, %s): %s", ga_dtype_name(dt), ga_last_error_message());
        if (got) {
            double sum = 0, sum2 = 0;
            for (int64_t i = 0; i < n; i++) {
                const double x = t ? ((double *)got)[i] : ((float *)got)[i];
                sum += x;
                sum2 += x * x;
            }
            const double mean = sum / (double)n, var = sum2 / (double)n - mean * mean;
            /* standard errors: 1/sqrt(n) for the mean, sqrt(2/n) for the variance */
            CHECK(fabs(mean) <= 5 / sqrt((double)n), "standard_normal %s: mean %g of 2**22 values", ga_dtype_name(dt),
                  mean);
            CHECK(fabs(var - 1) <= 5 * sqrt(2 / (double)n), "standard_normal %s: variance %g of 2**22 values",
                  ga_dtype_name(dt), var);
        }
        free(got);
        ga_release(a);
        ga_generator_release(g);
    }
}

/* A NULL generator is the current device's global one; ga_random_seed
   reseeds it as default_rng seeds a new one. */
DEVICE_TEST(random_device_global_generator)
{
    const uint32_t seed = 2024;
    const int64_t n = 1001;
    CHECK_OK(ga_random_seed(&seed, 1));
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *a1 = ga_random_random(NULL, 1, &n, GA_FLOAT64), *a2 = ga_random_standard_normal(NULL, 1, &n, GA_FLOAT32);
    ga_array *b1 = ga_random_random(g, 1, &n, GA_FLOAT64), *b2 = ga_random_standard_normal(g, 1, &n, GA_FLOAT32);
    CHECK(a1 && a2 && b1 && b2, "draws from the global generator: %s", ga_last_error_message());
    CHECK(same_array(a1, b1) && same_array(a2, b2), "ga_random_seed(s) then NULL draws are default_rng(s)'s");
    ga_release(a1), ga_release(a2), ga_release(b1), ga_release(b2);
    CHECK_OK(ga_random_seed(NULL, 0));
    ga_array *c = ga_random_bytes(NULL, 16), *d = ga_random_bytes(NULL, 16);
    CHECK(c && d && !same_array(c, d), "the global generator moves on between draws");
    ga_release(c), ga_release(d);
    ga_generator_release(g);
}

DEVICE_TEST(random_device_draw_errors)
{
    const uint32_t seed = 3;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    const int64_t neg[2] = {3, -1}, empty[2] = {0, 5};
    CHECK_ERROR(ga_random_random(g, 2, neg, GA_FLOAT32) == NULL, GA_ERROR_VALUE,
                "ga_random_random: negative dimensions are not allowed");
    CHECK_ERROR(ga_random_standard_normal(g, 2, neg, GA_FLOAT64) == NULL, GA_ERROR_VALUE,
                "negative dimensions are not allowed");
    const int64_t minus = -4;
    CHECK_ERROR(ga_random_bytes(g, minus) == NULL, GA_ERROR_VALUE, "negative dimensions are not allowed");
    ga_array *e = ga_random_random(g, 2, empty, GA_FLOAT64);
    CHECK(e && ga_size(e) == 0 && ga_ndim(e) == 2, "an empty draw: %s", ga_last_error_message());
    ga_release(e);
    CHECK(state_moved_by(&before, g, 0), "failed and empty draws take no words");
    ga_array *z = ga_random_random(g, 0, NULL, GA_FLOAT32); /* 0-d: one value, one word */
    CHECK(z && ga_ndim(z) == 0 && ga_size(z) == 1, "a 0-d draw: %s", ga_last_error_message());
    CHECK(state_moved_by(&before, g, 1), "a 0-d float32 draw takes one word");
    ga_release(z);
    ga_generator_release(g);
}

/* ---- distributions ------------------------------------------------------ */

TEST(random_distribution_errors_before_the_device)
{
    const uint32_t seed = 5;
    const int64_t n4[1] = {4}, n3[1] = {3};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    CHECK(ga_random_distribution_nparams(GA_RANDOM_TRIANGULAR) == 3 && ga_random_distribution_nparams(GA_NUM_DISTRIBUTIONS) == -1,
          "the numbers of parameters");
    CHECK(strcmp(ga_random_distribution_name(GA_RANDOM_STANDARD_CAUCHY), "standard_cauchy") == 0 &&
              ga_random_distribution_name((ga_distribution)-1) == NULL,
          "NumPy's names");
    CHECK_ERROR(ga_random_normal(g, 0, -1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_normal: scale < 0");
    CHECK_ERROR(ga_random_normal(g, 0, -0.0, 1, n4) == NULL, GA_ERROR_VALUE, "scale < 0"); /* NumPy's signbit */
    CHECK_ERROR(ga_random_exponential(g, -2, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_exponential: scale < 0");
    CHECK_ERROR(ga_random_lognormal(g, 0, -1, 1, n4) == NULL, GA_ERROR_VALUE, "sigma < 0");
    CHECK_ERROR(ga_random_weibull(g, -1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_weibull: a < 0");
    CHECK_ERROR(ga_random_pareto(g, 0, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_pareto: a <= 0");
    CHECK_ERROR(ga_random_power(g, -1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_power: a <= 0");
    CHECK_ERROR(ga_random_geometric(g, 0, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_geometric: p <= 0, p > 1 or p contains NaNs");
    CHECK_ERROR(ga_random_geometric(g, NAN, 1, n4) == NULL, GA_ERROR_VALUE, "p <= 0, p > 1 or p contains NaNs");
    CHECK_ERROR(ga_random_geometric(g, 1.5, 1, n4) == NULL, GA_ERROR_VALUE, "p <= 0, p > 1 or p contains NaNs");
    CHECK_ERROR(ga_random_uniform(g, -INFINITY, 0, 1, n4) == NULL, GA_ERROR_OVERFLOW,
                "ga_random_uniform: high - low range exceeds valid bounds");
    CHECK_ERROR(ga_random_uniform(g, -1.5e308, 1.5e308, 1, n4) == NULL, GA_ERROR_OVERFLOW, "high - low range exceeds valid bounds");
    CHECK_ERROR(ga_random_uniform(g, 0, NAN, 1, n4) == NULL, GA_ERROR_OVERFLOW, "high - low range exceeds valid bounds");
    CHECK_ERROR(ga_random_uniform(g, 1, 0, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_uniform: high - low < 0");
    CHECK_ERROR(ga_random_uniform(g, 0.0, -0.0, 1, n4) == NULL, GA_ERROR_VALUE, "high - low < 0"); /* NumPy's signbit */
    CHECK_ERROR(ga_random_triangular(g, 2, 1, 3, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_triangular: left > mode");
    CHECK_ERROR(ga_random_triangular(g, 0, 4, 3, 1, n4) == NULL, GA_ERROR_VALUE, "mode > right");
    CHECK_ERROR(ga_random_triangular(g, 1, 1, 1, 1, n4) == NULL, GA_ERROR_VALUE, "left == right");
    CHECK_ERROR(ga_random_standard_exponential(g, 1, n4, GA_INT32) == NULL, GA_ERROR_TYPE,
                "ga_random_standard_exponential: Unsupported dtype \"int32\" for standard_exponential");
    ga_operand two[2] = {ga_operand_scalar(ga_float(0)), ga_operand_scalar(ga_float(1))};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, two, 1, n4, GA_FLOAT32) == NULL, GA_ERROR_TYPE,
                "Unsupported dtype \"float32\" for normal");
    CHECK_ERROR(ga_random_call(g, GA_NUM_DISTRIBUTIONS, two, 1, n4, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "is not a distribution");
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, NULL, 1, n4, GA_DTYPE_INVALID) == NULL, GA_ERROR_NULL_INPUT,
                "ga_random_normal: params is NULL");
    two[1] = ga_operand_scalar(ga_complex(1, 1));
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, two, 1, n4, GA_DTYPE_INVALID) == NULL, GA_ERROR_TYPE,
                "can't convert complex to float");
    const int64_t neg[1] = {-3};
    CHECK_ERROR(ga_random_normal(g, 0, 1, 1, neg) == NULL, GA_ERROR_VALUE, "negative dimensions are not allowed");
    /* integers */
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_int(0), 1, n3, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "ga_random_integers: high <= 0"); /* NumPy's words where low is 0 */
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_int(-1), 1, n3, GA_INT8, true) == NULL, GA_ERROR_VALUE,
                "ga_random_integers: high < 0");
    CHECK_ERROR(ga_random_integers(g, ga_int(2), ga_int(2), 1, n3, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "ga_random_integers: low >= high");
    CHECK_ERROR(ga_random_integers(g, ga_int(1), ga_int(0), 1, n3, GA_INT8, true) == NULL, GA_ERROR_VALUE, "low > high");
    CHECK_ERROR(ga_random_integers(g, ga_int(-129), ga_int(0), 1, n3, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "low is out of bounds for int8");
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_int(257), 1, n3, GA_UINT8, false) == NULL, GA_ERROR_VALUE,
                "high is out of bounds for uint8");
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_int(256), 1, n3, GA_UINT8, true) == NULL, GA_ERROR_VALUE,
                "high is out of bounds for uint8");
    CHECK_ERROR(ga_random_integers(g, ga_int(-1), ga_int(5), 1, n3, GA_UINT64, false) == NULL, GA_ERROR_VALUE,
                "low is out of bounds for uint64");
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_uint(UINT64_MAX), 1, n3, GA_INT64, true) == NULL, GA_ERROR_VALUE,
                "high is out of bounds for int64");
    CHECK_ERROR(ga_random_integers(g, ga_float(0.5), ga_int(4), 1, n3, GA_INT64, false) == NULL, GA_ERROR_TYPE,
                "low and high must be integers");
    CHECK_ERROR(ga_random_integers(g, ga_int(0), ga_int(4), 1, n3, GA_FLOAT32, false) == NULL, GA_ERROR_TYPE,
                "Unsupported dtype float32 for integers");
    /* the rejection samplers' parameters */
    CHECK_ERROR(ga_random_poisson(g, -1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_poisson: lam < 0 or lam is NaN");
    CHECK_ERROR(ga_random_poisson(g, NAN, 1, n4) == NULL, GA_ERROR_VALUE, "lam < 0 or lam is NaN");
    CHECK_ERROR(ga_random_poisson(g, 1e19, 1, n4) == NULL, GA_ERROR_VALUE, "lam value too large");
    CHECK_ERROR(ga_random_binomial(g, -1, 0.5, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_binomial: n < 0");
    CHECK_ERROR(ga_random_binomial(g, 5, 1.5, 1, n4) == NULL, GA_ERROR_VALUE, "p < 0, p > 1 or p is NaN");
    CHECK_ERROR(ga_random_binomial(g, -1, 1.5, 1, n4) == NULL, GA_ERROR_VALUE, "p < 0, p > 1 or p is NaN"); /* p first */
    CHECK_ERROR(ga_random_negative_binomial(g, NAN, 0.5, 1, n4) == NULL, GA_ERROR_VALUE, "n must not be NaN");
    CHECK_ERROR(ga_random_negative_binomial(g, 0, 0.5, 1, n4) == NULL, GA_ERROR_VALUE, "n <= 0");
    CHECK_ERROR(ga_random_negative_binomial(g, 3, 0, 1, n4) == NULL, GA_ERROR_VALUE, "p <= 0, p > 1 or p contains NaNs");
    CHECK_ERROR(ga_random_negative_binomial(g, 1e10, 1e-9, 1, n4) == NULL, GA_ERROR_VALUE,
                "n too large or p too small, see Generator.negative_binomial Notes");
    CHECK_ERROR(ga_random_hypergeometric(g, 2, 3, 10, 1, n4) == NULL, GA_ERROR_VALUE, "ngood + nbad < nsample");
    CHECK_ERROR(ga_random_hypergeometric(g, -2, 3, 1, 1, n4) == NULL, GA_ERROR_VALUE, "ngood < 0");
    CHECK_ERROR(ga_random_hypergeometric(g, 2000000000, 3, 1, 1, n4) == NULL, GA_ERROR_VALUE,
                "both ngood and nbad must be less than 1000000000");
    CHECK_ERROR(ga_random_zipf(g, 1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_zipf: a <= 1 or a is NaN");
    CHECK_ERROR(ga_random_logseries(g, 1, 1, n4) == NULL, GA_ERROR_VALUE, "p < 0, p >= 1 or p is NaN");
    CHECK_ERROR(ga_random_beta(g, 0, 1, 1, n4) == NULL, GA_ERROR_VALUE, "ga_random_beta: a <= 0");
    CHECK_ERROR(ga_random_standard_gamma(g, -1, 1, n4, GA_FLOAT32) == NULL, GA_ERROR_VALUE, "shape < 0");
    CHECK_ERROR(ga_random_standard_gamma(g, 1, 1, n4, GA_FLOAT16) == NULL, GA_ERROR_TYPE,
                "Unsupported dtype \"float16\" for standard_gamma");
    CHECK_ERROR(ga_random_wald(g, 1, 0, 1, n4) == NULL, GA_ERROR_VALUE, "scale <= 0");
    CHECK_ERROR(ga_random_vonmises(g, 0, -1, 1, n4) == NULL, GA_ERROR_VALUE, "kappa < 0");
    CHECK_ERROR(ga_random_noncentral_f(g, 1, 2, -1, 1, n4) == NULL, GA_ERROR_VALUE, "nonc < 0");
    const ga_operand half_n[2] = {ga_operand_scalar(ga_float(2.5)), ga_operand_scalar(ga_float(0.5))};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_BINOMIAL, half_n, 1, n4, GA_DTYPE_INVALID) == NULL, GA_ERROR_TYPE,
                "to dtype('int64') according to the rule 'safe'");
    CHECK_ERROR(ga_random_randint(5, 5, 1, n3, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE, "ga_random_randint: low >= high");
    CHECK_ERROR(ga_random_random_integers(5, 4, 1, n3) == NULL, GA_ERROR_VALUE, "ga_random_random_integers: low > high");
    CHECK(state_moved_by(&before, g, 0), "failed draws take no words");
    ga_generator_release(g);
}

/* The uniforms of value i of a fixed draw: [0, 1) and (0, 1) (the latter
   clamped below 1, where k + 1/2 rounds up to 2**53) of the value's 32
   (float32) or 64 bits of the host's words. */
static double host_u(const uint32_t *w, int64_t i, int f64, bool open)
{
    const uint64_t k = f64 ? ((uint64_t)w[2 * i + 1] << 32 | w[2 * i]) >> 11 : w[i] >> 8;
    const double u = ((double)k + (open ? 0.5 : 0.0)) * ldexp(1.0, f64 ? -53 : -24);
    return u < 1 ? u : 1 - ldexp(1.0, f64 ? -53 : -24);
}

/* -log of the open uniform of value i's 64 bits, its upper half as
   -log1p of the mirror (exact). */
static double host_exponential(const uint32_t *w, int64_t i)
{
    const uint64_t k = ((uint64_t)w[2 * i + 1] << 32 | w[2 * i]) >> 11;
    if (k < (1ull << 52)) return -log(((double)k + 0.5) * 0x1p-53);
    return -log1p(-((double)((1ull << 53) - 1 - k) + 0.5) * 0x1p-53);
}

/* Value i of distribution d with scalar parameters v from the host's words,
   in double: NumPy's formulas (the kernels' contract). */
static double host_fixed(ga_distribution d, const double *v, const uint32_t *w, int64_t i, int f64)
{
    const double u = host_u(w, i, f64, false), uo = host_u(w, i, f64, true), e = -log1p(-u);
    const uint64_t k = f64 ? ((uint64_t)w[2 * i + 1] << 32 | w[2 * i]) >> 11 : w[i] >> 8;
    const double z = ref_normal(k, f64 ? 53 : 24), a = v[0], b = v[1];
    switch (d) {
    case GA_RANDOM_UNIFORM: return a + (b - a) * u;
    case GA_RANDOM_NORMAL: return a + b * z;
    case GA_RANDOM_LOGNORMAL: return exp(a + b * z);
    case GA_RANDOM_STANDARD_EXPONENTIAL: return e;
    case GA_RANDOM_EXPONENTIAL: return a * e;
    case GA_RANDOM_LAPLACE: return uo >= 0.5 ? a - b * log(2.0 - uo - uo) : a + b * log(uo + uo);
    case GA_RANDOM_LOGISTIC: return a + b * log(uo / (1.0 - uo));
    case GA_RANDOM_GUMBEL: return a - b * log(-log1p(-uo));
    case GA_RANDOM_WEIBULL: return a == 0 ? 0 : pow(e, 1.0 / a);
    case GA_RANDOM_PARETO: return expm1(e / a);
    case GA_RANDOM_POWER: return pow(u, 1.0 / a);
    case GA_RANDOM_RAYLEIGH: return a * sqrt(2.0 * e);
    case GA_RANDOM_STANDARD_CAUCHY: return tan(3.14159265358979323846 * (uo - 0.5));
    case GA_RANDOM_TRIANGULAR: {
        const double right = v[2], base = right - a, left_base = b - a;
        return u <= left_base / base ? a + sqrt(u * left_base * base) : right - sqrt((1.0 - u) * (right - b) * base);
    }
    case GA_RANDOM_GEOMETRIC: return a >= 1 ? 1.0 : ceil(host_exponential(w, i) / -log1p(-a));
    default: return NAN;
    }
}

/* Every fixed distribution against the host's formula on the same words,
   from every place in a block, with its parameters as scalars. */
DEVICE_TEST(random_device_fixed_distributions_are_the_hosts_formulas)
{
    static const struct { ga_distribution d; double v[3]; } cases[] = {
        {GA_RANDOM_UNIFORM, {-2, 5}},       {GA_RANDOM_NORMAL, {1.5, 3}},    {GA_RANDOM_LOGNORMAL, {0.5, 0.75}},
        {GA_RANDOM_STANDARD_EXPONENTIAL, {0}}, {GA_RANDOM_EXPONENTIAL, {2.5}}, {GA_RANDOM_LAPLACE, {1, 2}},
        {GA_RANDOM_LOGISTIC, {-1, 0.5}},    {GA_RANDOM_GUMBEL, {0.5, 2}},    {GA_RANDOM_WEIBULL, {1.7}},
        {GA_RANDOM_WEIBULL, {0}},           {GA_RANDOM_PARETO, {3}},         {GA_RANDOM_POWER, {0.6}},
        {GA_RANDOM_RAYLEIGH, {2}},          {GA_RANDOM_STANDARD_CAUCHY, {0}}, {GA_RANDOM_TRIANGULAR, {-1, 0.5, 4}},
        {GA_RANDOM_TRIANGULAR, {0, 0, 1}},  {GA_RANDOM_GEOMETRIC, {0.3}},     {GA_RANDOM_GEOMETRIC, {1}},
        {GA_RANDOM_GEOMETRIC, {1e-9}},
    };
    const uint32_t seed = 777;
    const int64_t n = 1003;
    for (int c = 0; c < COUNT(cases); c++)
        for (int skip = 0; skip < 4; skip++)
            for (int f64 = 0; f64 < 2; f64++) {
                const ga_distribution d = cases[c].d;
                if (!f64 && d != GA_RANDOM_STANDARD_EXPONENTIAL) continue; /* float32: standard_exponential's dtype */
                const ga_dtype dt = d == GA_RANDOM_GEOMETRIC ? GA_INT64 : f64 ? GA_FLOAT64 : GA_FLOAT32;
                uint32_t *w = host_words(seed, skip, 2 * n);
                ga_generator *g = skipped_rng(seed, skip);
                ga_random_state before;
                ga_operand p[3];
                for (int k = 0; k < 3; k++) p[k] = ga_operand_scalar(ga_float(cases[c].v[k]));
                CHECK_OK(ga_random_get_state(g, &before));
                ga_array *a = ga_random_call(g, d, p, 1, &n, d == GA_RANDOM_STANDARD_EXPONENTIAL ? dt : GA_DTYPE_INVALID);
                CHECK(a && ga_dtype_of(a) == dt, "%s: %s", ga_random_distribution_name(d), ga_last_error_message());
                void *got = a ? fetch(a) : NULL;
                int64_t bad = -1;
                double want = 0, have = 0;
                for (int64_t i = 0; got && w && i < n && bad < 0; i++) {
                    want = host_fixed(d, cases[c].v, w, i, f64);
                    have = dt == GA_INT64 ? (double)((int64_t *)got)[i] : f64 ? ((double *)got)[i] : ((float *)got)[i];
                    const double tol = dt == GA_INT64 ? 0 : (f64 ? 1e-12 : 2e-6) * fmax(1.0, fabs(want));
                    if (!(fabs(have - want) <= tol) && !(dt == GA_INT64 && fabs(have - want) <= 1)) bad = i;
                }
                CHECK(got && bad < 0, "%s(%g, %g, %g) %s from word %d: value %lld is %.17g, the host's %.17g",
                      ga_random_distribution_name(d), cases[c].v[0], cases[c].v[1], cases[c].v[2], ga_dtype_name(dt), skip,
                      (long long)bad, have, want);
                CHECK(state_moved_by(&before, g, (uint64_t)n * (f64 ? 2 : 1)), "%s takes %d words a value",
                      ga_random_distribution_name(d), f64 ? 2 : 1);
                free(got), free(w);
                ga_release(a);
                ga_generator_release(g);
            }
}

/* Value i's bits of a power-of-two integers draw from the host's words. */
static uint64_t host_slice(const uint32_t *w, int64_t i, int bits)
{
    if (bits == 64) return (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
    if (bits == 32) return w[i];
    const int per = 32 / bits;
    return (w[i / per] >> (bits * (i % per))) & ((1u << bits) - 1);
}

DEVICE_TEST(random_device_integers_over_powers_of_two)
{
    static const struct { ga_dtype t; int64_t low; int k; int bits; } cases[] = {
        {GA_BOOL, 0, 1, 1},     {GA_UINT8, 0, 8, 8},    {GA_INT8, -128, 8, 8},   {GA_INT8, 3, 2, 8},
        {GA_INT16, 5, 10, 16},  {GA_UINT16, 0, 16, 16}, {GA_INT32, -7, 31, 32},  {GA_UINT32, 0, 32, 32},
        {GA_INT64, 0, 20, 32},  {GA_INT64, -(1ll << 40), 41, 64}, {GA_UINT64, 0, 64, 64}, {GA_INT64, 9, 0, 0},
    };
    const uint32_t seed = 31337;
    const int64_t n = 999;
    for (int c = 0; c < COUNT(cases); c++)
        for (int skip = 0; skip < 4; skip += 3) {
            const ga_dtype t = cases[c].t;
            const int k = cases[c].k, bits = cases[c].bits;
            uint32_t *w = host_words(seed, skip, 2 * n);
            ga_generator *g = skipped_rng(seed, skip);
            ga_random_state before;
            CHECK_OK(ga_random_get_state(g, &before));
            const ga_scalar low = ga_int(cases[c].low);
            const ga_scalar high = k == 64 ? ga_uint(UINT64_MAX) : ga_int(cases[c].low + (int64_t)((1ull << k) - 1));
            ga_array *a = ga_random_integers(g, low, high, 1, &n, t, true);
            CHECK(a && ga_dtype_of(a) == t, "integers %s k %d: %s", ga_dtype_name(t), k, ga_last_error_message());
            unsigned char *got = a ? fetch(a) : NULL;
            const size_t size = ga_dtype_itemsize(t);
            int64_t bad = -1;
            for (int64_t i = 0; got && w && i < n && bad < 0; i++) {
                const uint64_t want = (uint64_t)cases[c].low + (k == 0 ? 0 : host_slice(w, i, bits) >> (bits - k));
                uint64_t have = 0;
                memcpy(&have, got + (size_t)i * size, size);
                if (have != (size < 8 ? want & ((1ull << (8 * size)) - 1) : want)) bad = i;
            }
            CHECK(got && bad < 0, "integers %s over 2**%d from word %d: value %lld differs from the host's", ga_dtype_name(t), k,
                  skip, (long long)bad);
            CHECK(state_moved_by(&before, g, ((uint64_t)n * (uint64_t)bits + 31) / 32), "integers %s over 2**%d take %d bits a value",
                  ga_dtype_name(t), k, bits);
            free(got), free(w);
            ga_release(a);
            ga_generator_release(g);
        }
}

/* Array parameters broadcast against each other and the size, with NumPy's
   errors, checked on the device. */
DEVICE_TEST(random_device_array_parameters)
{
    const uint32_t seed = 99;
    const int64_t col[2] = {5, 1}, three[1] = {3}, out_shape[2] = {5, 3};
    ga_array *loc_flat = ga_arange(0, 5, 1, GA_INT32), *loc = ga_reshape(loc_flat, 2, col), *scale = ga_arange(1, 4, 1, GA_FLOAT32);
    ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
    const ga_operand p[2] = {ga_operand_array(loc), ga_operand_array(scale)};
    ga_array *a = ga_random_call(g, GA_RANDOM_NORMAL, p, 0, NULL, GA_DTYPE_INVALID); /* size=None: (5, 3) */
    ga_array *z = ga_random_standard_normal(h, 2, out_shape, GA_FLOAT64);
    CHECK(a && ga_ndim(a) == 2 && ga_shape(a)[0] == 5 && ga_shape(a)[1] == 3, "normal(loc (5, 1), scale (3,)): %s",
          ga_last_error_message());
    double *x = a ? fetch(a) : NULL, *y = z ? fetch(z) : NULL;
    int bad = -1;
    for (int i = 0; x && y && i < 15 && bad < 0; i++)
        if (fabs(x[i] - ((double)(i / 3) + (double)(i % 3 + 1) * y[i])) > 1e-12 * (1 + fabs(x[i]))) bad = i;
    CHECK(x && y && bad < 0, "normal(loc, scale)[%d] is loc + scale * standard_normal", bad);
    free(x), free(y);
    ga_release(a), ga_release(z);
    /* the size must be the broadcast shape */
    const int64_t wrong[2] = {2, 3}, bigger[3] = {4, 5, 3};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, p, 2, wrong, GA_DTYPE_INVALID) == NULL, GA_ERROR_SHAPE,
                "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (2, 3) "
                "and arg 1 with shape (5, 1).");
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, p, 1, three, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "Output size (3,) is not compatible with broadcast dimensions of inputs (5, 3).");
    ga_array *big = ga_random_call(g, GA_RANDOM_NORMAL, p, 3, bigger, GA_DTYPE_INVALID); /* leading dims of the size */
    CHECK(big && ga_ndim(big) == 3 && ga_size(big) == 60, "normal(loc (5, 1), scale (3,), size (4, 5, 3)): %s",
          ga_last_error_message());
    ga_release(big);
    /* checks of array parameters, with the arrays' words */
    const double bad_scale[3] = {1, -1, 2}, nan_scale[3] = {1, NAN, 2}, p0[3] = {0.5, 0, 1};
    ga_array *s1 = ga_from_host(bad_scale, 1, three, GA_FLOAT64), *s2 = ga_from_host(nan_scale, 1, three, GA_FLOAT64);
    ga_array *q = ga_from_host(p0, 1, three, GA_FLOAT64);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    const ga_operand bad1[2] = {ga_operand_scalar(ga_float(0)), ga_operand_array(s1)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NORMAL, bad1, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_random_normal: scale < 0");
    const ga_operand bad2[1] = {ga_operand_array(q)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_GEOMETRIC, bad2, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "p <= 0, p > 1 or p contains NaNs");
    const ga_operand tri[3] = {ga_operand_array(s1), ga_operand_scalar(ga_float(0)), ga_operand_scalar(ga_float(3))};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_TRIANGULAR, tri, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "left > mode");
    /* NumPy's order: binomial takes p before n; uniform broadcasts low with
       high - low; beside an array a scalar is checked as an array, in order */
    const double lam[2] = {4, NAN};
    const int64_t two = 2, four = 4, five = 5, c31[2] = {3, 1};
    ga_array *lams = ga_from_host(lam, 1, &two, GA_FLOAT64), *n31 = ga_zeros(2, c31, GA_INT64);
    ga_array *p4 = ga_full(1, &four, ga_float(0.5), GA_FLOAT64), *ns = ga_full(1, three, ga_int(-1), GA_INT64);
    const ga_operand pois[1] = {ga_operand_array(lams)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_POISSON, pois, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_random_poisson: lam value too large"); /* an array's NaN fails lam <= max first */
    const ga_operand bin[2] = {ga_operand_array(n31), ga_operand_array(p4)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_BINOMIAL, bin, 1, &five, GA_DTYPE_INVALID) == NULL, GA_ERROR_SHAPE,
                "Mismatch is between arg 0 with shape (5,) and arg 1 with shape (4,).");
    const ga_operand uni[2] = {ga_operand_array(n31), ga_operand_array(p4)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_UNIFORM, uni, 1, &five, GA_DTYPE_INVALID) == NULL, GA_ERROR_SHAPE,
                "Mismatch is between arg 0 with shape (5,) and arg 2 with shape (3, 4).");
    const ga_operand uni_bad[2] = {ga_operand_array(q), ga_operand_array(p4)};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_UNIFORM, uni_bad, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_SHAPE,
                "operands could not be broadcast together with shapes (4,) (3,)");
    const ga_operand bin_nan[2] = {ga_operand_array(ns), ga_operand_scalar(ga_float(NAN))};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_BINOMIAL, bin_nan, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_random_binomial: p < 0, p > 1 or p contains NaNs");
    const ga_operand bin_n[2] = {ga_operand_array(ns), ga_operand_scalar(ga_float(0.5))};
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_BINOMIAL, bin_n, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_random_binomial: n < 0");
    const ga_operand nb[2] = {ga_operand_array(q), ga_operand_scalar(ga_float(2))}; /* q holds a 0: n <= 0 */
    CHECK_ERROR(ga_random_call(g, GA_RANDOM_NEGATIVE_BINOMIAL, nb, 0, NULL, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_random_negative_binomial: n <= 0"); /* the array n before the bad scalar p */
    ga_release(lams), ga_release(n31), ga_release(p4), ga_release(ns);
    CHECK(state_moved_by(&before, g, 0), "failed draws take no words");
    const ga_operand nan_ok[2] = {ga_operand_scalar(ga_float(0)), ga_operand_array(s2)};
    ga_array *b = ga_random_call(g, GA_RANDOM_NORMAL, nan_ok, 0, NULL, GA_DTYPE_INVALID); /* NaN passes, as NumPy's */
    double *bv = b ? fetch(b) : NULL;
    CHECK(bv && !isnan(bv[0]) && isnan(bv[1]) && !isnan(bv[2]), "a NaN scale gives NaN: %s", ga_last_error_message());
    free(bv);
    ga_release(b), ga_release(s1), ga_release(s2), ga_release(q), ga_release(loc), ga_release(loc_flat), ga_release(scale);
    ga_generator_release(g), ga_generator_release(h);
}

DEVICE_TEST(random_device_distributions_are_split_invariant)
{
    const uint32_t seed = 2024;
    const int64_t n = 333, m = 1001, nm = n + m;
    ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
    ga_array *a = ga_random_exponential(g, 2, 1, &n), *b = ga_random_exponential(g, 2, 1, &m);
    ga_array *c = ga_random_exponential(h, 2, 1, &nm);
    double *x = a ? fetch(a) : NULL, *y = b ? fetch(b) : NULL, *all = c ? fetch(c) : NULL;
    CHECK(x && y && all && memcmp(all, x, (size_t)n * 8) == 0 && memcmp(all + n, y, (size_t)m * 8) == 0,
          "exponential(n) then exponential(m) is exponential(n + m): %s", ga_last_error_message());
    free(x), free(y), free(all);
    ga_release(a), ga_release(b), ga_release(c);
    ga_generator_release(g), ga_generator_release(h);
}

/* The legacy functions draw from the global generator as the Generator
   methods do from a generator seeded alike. */
DEVICE_TEST(random_device_legacy_functions)
{
    const uint32_t seed = 4711;
    const int64_t shape[2] = {7, 9};
    CHECK_OK(ga_random_seed(&seed, 1));
    ga_array *got[5] = {ga_random_rand(2, shape), ga_random_random_sample(2, shape), ga_random_randn(2, shape),
                        ga_random_randint(-8, 8, 2, shape, GA_INT16), ga_random_random_integers(3, 10, 2, shape)};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *want[5] = {ga_random_random(g, 2, shape, GA_FLOAT64), ga_random_random(g, 2, shape, GA_FLOAT64),
                         ga_random_standard_normal(g, 2, shape, GA_FLOAT64),
                         ga_random_integers(g, ga_int(-8), ga_int(8), 2, shape, GA_INT16, false),
                         ga_random_integers(g, ga_int(3), ga_int(10), 2, shape, GA_INT64, true)};
    static const char *const names[5] = {"rand", "random_sample", "randn", "randint", "random_integers"};
    for (int k = 0; k < 5; k++) {
        void *x = got[k] ? fetch(got[k]) : NULL, *y = want[k] ? fetch(want[k]) : NULL;
        CHECK(x && y && ga_dtype_of(got[k]) == ga_dtype_of(want[k]) && memcmp(x, y, ga_nbytes(got[k])) == 0,
              "%s draws as the Generator method: %s", names[k], ga_last_error_message());
        free(x), free(y);
        ga_release(got[k]), ga_release(want[k]);
    }
    ga_generator_release(g);
}

/* ---- per-element streams ------------------------------------------------ */

/* Element i's stream of a draw at the 128-bit counter c under key, on the
   host (random_philox.cuh's contract): block j is Philox4x32-10 of
   c + i + j * 2**96, its words in order. */
typedef struct host_stream {
    uint32_t ctr[4], key[2], w[4];
    uint32_t block;
    int left;
} host_stream;

static host_stream host_stream_at(const ga_random_state *s, uint64_t i)
{
    host_stream h;
    memset(&h, 0, sizeof h);
    uint64_t c[2] = {s->counter[0], s->counter[1]};
    if (s->buffer_pos) ga__words_add(c, 2, 0, 1); /* element draws start at a whole block */
    ga__words_add(c, 2, 0, i);
    h.ctr[0] = (uint32_t)c[0], h.ctr[1] = (uint32_t)(c[0] >> 32), h.ctr[2] = (uint32_t)c[1], h.ctr[3] = (uint32_t)(c[1] >> 32);
    h.key[0] = (uint32_t)s->key[0], h.key[1] = (uint32_t)(s->key[0] >> 32);
    return h;
}

static uint32_t host_next32(host_stream *h)
{
    if (h->left == 0) {
        const uint32_t ctr[4] = {h->ctr[0], h->ctr[1], h->ctr[2], h->ctr[3] + h->block++};
        ga__philox4x32(ctr, h->key, h->w);
        h->left = 4;
    }
    return h->w[4 - h->left--];
}

/* Lemire's multiply-and-reject for 0..range, as the lemire kernels. */
static uint64_t host_lemire(host_stream *h, uint64_t range)
{
    if (range < 0xFFFFFFFFull) {
        const uint32_t values = (uint32_t)range + 1, threshold = (0u - values) % values;
        uint64_t m = (uint64_t)host_next32(h) * values;
        while ((uint32_t)m < threshold) m = (uint64_t)host_next32(h) * values;
        return m >> 32;
    }
    const uint64_t values = range + 1, threshold = (0ull - values) % values;
    for (;;) {
        const uint64_t lo32 = host_next32(h), x = (uint64_t)host_next32(h) << 32 | lo32;
        /* the 128-bit product x * values, in 32-bit pieces */
        const uint64_t a = x & 0xFFFFFFFFu, b = x >> 32, c = values & 0xFFFFFFFFu, d = values >> 32;
        const uint64_t ac = a * c, bc = b * c, ad = a * d, bd = b * d;
        const uint64_t mid = (ac >> 32) + (bc & 0xFFFFFFFFu) + (ad & 0xFFFFFFFFu);
        const uint64_t lo = x * values, hi = bd + (bc >> 32) + (ad >> 32) + (mid >> 32);
        if (lo >= threshold) return hi;
    }
}

/* ---- permutations ------------------------------------------------------- */

static const uint32_t *key_words;
static int by_key(const void *x, const void *y)
{
    const int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    const uint32_t a = key_words[i], b = key_words[j];
    return a != b ? (a < b ? -1 : 1) : (i > j) - (i < j);
}

/* permutation(n) on the host: the stable order of the n uint32 keys w,
   each run of equal keys then shuffled by Fisher-Yates (for j = L-1 down
   to 1, swap j and Lemire's draw over 0..j) from the element stream of its
   first position, the streams at `after_keys` (the state the keys leave);
   the runs of ties counted in *runs. NULL on failure. */
static int64_t *host_permutation(const uint32_t *w, int64_t n, const ga_random_state *after_keys, int64_t *runs)
{
    int64_t *v = malloc(sizeof(int64_t) * (size_t)(n + 1));
    *runs = 0;
    if (!v || !w) {
        free(v);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) v[i] = i;
    key_words = w;
    qsort(v, (size_t)n, sizeof *v, by_key);
    for (int64_t s = 0, len = 1; s < n; s += len) {
        for (len = 1; s + len < n && w[v[s + len]] == w[v[s]]; len++) {}
        if (len == 1) continue;
        (*runs)++;
        host_stream h = host_stream_at(after_keys, (uint64_t)s);
        for (int64_t j = len - 1; j > 0; j--) {
            const int64_t t = (int64_t)host_lemire(&h, (uint64_t)j), x = v[s + j];
            v[s + j] = v[s + t], v[s + t] = x;
        }
    }
    return v;
}

/* The state after permutation(n) (n > 0) from `before`: n words of keys,
   then n blocks of tie streams from the next whole block. */
static ga_random_state permutation_state(const ga_random_state *before, int64_t n, ga_random_state *after_keys)
{
    ga_random_state s = *before;
    ga__random_4x32_skip(&s, (uint64_t)n);
    *after_keys = s;
    if (s.buffer_pos) ga__random_4x32_skip(&s, (uint64_t)(4 - s.buffer_pos));
    ga__random_4x32_skip(&s, 4 * (uint64_t)n);
    return s;
}

/* permutation(n) is the stable order of n uint32 keys (one word each) with
   each run of ties shuffled from its first position's stream, the host's;
   2^20 keys hold about 128 tied pairs, which must be there and match. */
DEVICE_TEST(random_device_permutation_is_the_order_of_the_keys)
{
    static const int64_t sizes[] = {0, 1, 2, 5, 1000, 100003, 1 << 20};
    const uint32_t seed = 8080;
    for (int c = 0; c < COUNT(sizes); c++)
        for (int skip = 0; skip < 4; skip += 1) {
            const int64_t n = sizes[c];
            ga_generator *g = skipped_rng(seed, skip);
            ga_random_state before, after_keys, want_state, got_state;
            CHECK_OK(ga_random_get_state(g, &before));
            want_state = n ? permutation_state(&before, n, &after_keys) : before;
            uint32_t *w = host_words(seed, skip, n);
            int64_t runs = 0, *want = host_permutation(w, n, &after_keys, &runs);
            ga_array *p = ga_random_permutation(g, n);
            CHECK(p && ga_dtype_of(p) == GA_INT64 && ga_size(p) == n, "permutation(%lld): %s", (long long)n,
                  ga_last_error_message());
            int64_t *got = p ? fetch(p) : NULL;
            CHECK(got && want && memcmp(got, want, sizeof(int64_t) * (size_t)n) == 0,
                  "permutation(%lld) from word %d is the order of the host's keys, ties shuffled as the host's (%lld runs)",
                  (long long)n, skip, (long long)runs);
            if (n == 1 << 20)
                CHECK(runs >= 64 && runs <= 256, "2^20 keys from word %d: %lld runs of ties (about 128)", skip, (long long)runs);
            CHECK(ga_random_get_state(g, &got_state) == GA_OK && same_state(&want_state, &got_state),
                  "permutation(%lld) takes a word, then a block, a position", (long long)n);
            free(got), free(want), free(w);
            ga_release(p);
            ga_generator_release(g);
        }
}

/* The ties' shuffle, on the host: the emulation above puts each run's
   indices in every order equally often (a run of 3 tied keys, each of its
   6 orders over 6000 streams: 1000 expected, within 6 standard deviations
   of 28.9). */
TEST(random_permutation_tie_shuffle_is_uniform)
{
    const uint32_t seed = 31;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state s;
    CHECK_OK(ga_random_get_state(g, &s));
    const uint32_t w[3] = {7, 7, 7};
    int counts[6] = {0};
    bool ok = true;
    for (int t = 0; t < 6000 && ok; t++) {
        int64_t runs = 0, *v = host_permutation(w, 3, &s, &runs);
        ok = v && runs == 1;
        if (ok) counts[v[0] * 2 + (v[1] > v[2])]++;
        free(v);
        ga__random_4x32_skip(&s, 4 * 3); /* new streams */
    }
    CHECK(ok, "runs of 3 ties");
    for (int k = 0; ok && k < 6; k++) CHECK(abs(counts[k] - 1000) < 174, "order %d of 3 tied keys came %d times in 6000", k, counts[k]);
    ga_generator_release(g);
}


/* The chi-square test that the n values v (sorted in place; NULL: the
   draw failed) are uniform over 0..k-1, printed and checked as `what`. */
static void check_uniform_values(int64_t *v, int64_t n, int64_t k, const char *what)
{
    const double params[2] = {0, (double)k};
    double stat = 0;
    int df = 0;
    const double pv = v ? ga_chi2_pvalue(v, (size_t)n, ga_integers_pmf, params, &stat, &df) : 0;
    CHECK(pv > 1e-6, "%s: chi-square p = %.3g", what, pv);
    printf("    %s: chi-square p = %.3g (df %d)\n", what, pv, df);
}
/* The position of element 0 over 8000 permutations of 16: uniform
   (chi-square). 160 under GPUARR_TEST_SMALL (a sort a permutation). */
DEVICE_TEST(random_device_permutation_first_element_is_uniform)
{
    const uint32_t seed = 4242;
    const int64_t n = 16, draws = test_size(8000, 160); /* (a sort a draw: slow under racecheck) */
    ga_generator *g = ga_random_default_rng(&seed, 1);
    int64_t *where = malloc(sizeof(int64_t) * (size_t)draws);
    bool ok = where != NULL;
    for (int64_t t = 0; ok && t < draws; t++) {
        ga_array *p = ga_random_permutation(g, n);
        int64_t v[16];
        ok = p && download(p, v);
        where[t] = -1; /* (no 0: an impossible value, chi-square infinite) */
        for (int64_t i = 0; ok && i < n; i++)
            if (v[i] == 0) where[t] = i;
        ga_release(p);
    }
    CHECK(ok, "%lld permutations of 16: %s", (long long)draws, ga_last_error_message());
    check_uniform_values(ok ? where : NULL, draws, 16, "the position of 0 in permutation(16)");
    free(where);
    ga_generator_release(g);
}

/* Spawned and jumped generators are independent: the Pearson correlation
   of 2^20 uniforms between every pair of nine streams (a parent, its seven
   children, and the parent jumped once) and between each stream and itself
   one value later is within 5 / sqrt(n) of 0 (a chance failure about once
   in a million runs per pair). */
DEVICE_TEST(random_device_spawned_streams_are_uncorrelated)
{
    enum { STREAMS = 9 };
    const uint32_t seed = 2026;
    const int64_t n = 1 << 20;
    ga_generator *parent = ga_random_default_rng(&seed, 1), *gens[STREAMS] = {NULL};
    gens[0] = parent;
    CHECK_OK(ga_random_spawn(parent, STREAMS - 2, gens + 1));
    gens[STREAMS - 1] = ga_random_jumped(parent, 1);
    double *x[STREAMS] = {NULL};
    bool ok = gens[STREAMS - 1] != NULL;
    for (int k = 0; ok && k < STREAMS; k++) {
        ga_array *a = ga_random_random(gens[k], 1, &n, GA_FLOAT64);
        x[k] = a ? (double *)fetch(a) : NULL;
        ok = x[k] != NULL;
        ga_release(a);
    }
    CHECK(ok, "2^20 uniforms from each of %d generators: %s", STREAMS, ga_last_error_message());
    const double bound = 5 / sqrt((double)n);
    for (int a = 0; ok && a < STREAMS; a++)
        for (int b = a; b < STREAMS; b++) {
            const int lag = a == b; /* a stream against itself one value on */
            double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
            const int64_t m = n - lag;
            for (int64_t i = 0; i < m; i++) {
                const double u = x[a][i] - 0.5, v = x[b][i + lag] - 0.5;
                sa += u, sb += v, saa += u * u, sbb += v * v, sab += u * v;
            }
            const double cov = sab / m - (sa / m) * (sb / m);
            const double r = cov / sqrt((saa / m - (sa / m) * (sa / m)) * (sbb / m - (sb / m) * (sb / m)));
            CHECK(fabs(r) <= bound, "streams %d and %d%s: correlation %.5f (bound %.5f)", a, b, lag ? " one value on" : "",
                  r, bound);
        }
    for (int k = 0; k < STREAMS; k++) free(x[k]), ga_generator_release(gens[k]);
}

/* Each of the 24 orders of 4 positions, over 4800 permutations of one
   generator: 200 expected, within 5 standard deviations (14.0 each); 240
   under GPUARR_TEST_SMALL. */
DEVICE_TEST(random_device_permutations_are_uniform)
{
    const uint32_t seed = 55;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    int counts[256] = {0};
    bool ok = true;
    /* each of the 24 orders draws/24 times, within 5 standard deviations */
    const int draws = (int)test_size(4800, 240), mean = draws / 24, tol = (int)(5 * sqrt(mean));
    for (int t = 0; t < draws && ok; t++) {
        ga_array *p = ga_random_permutation(g, 4);
        int64_t v[4];
        ok = p && download(p, v);
        int code = 0;
        for (int i = 0; ok && i < 4; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 4; j++) smaller += v[j] < v[i];
            code = code * (4 - i) + smaller;
        }
        if (ok) counts[code]++;
        ga_release(p);
    }
    CHECK(ok, "%d permutations of 4: %s", draws, ga_last_error_message());
    for (int k = 0; ok && k < 24; k++)
        CHECK(counts[k] > mean - tol && counts[k] < mean + tol, "order %d of 4 positions came %d times in %d", k, counts[k], draws);
    ga_generator_release(g);
}

DEVICE_TEST(random_device_shuffles)
{
    const uint32_t seed = 12;
    const int64_t shape[2] = {6, 7};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *base = ga_arange_int(0, 42, 1, GA_INT32), *x = ga_reshape(base, 2, shape);
    /* permutation along axis 1: every row in the same new order of its columns */
    ga_array *p = ga_random_permutation_array(g, x, -1);
    int32_t *v = p ? fetch(p) : NULL;
    bool same = v != NULL, all = v != NULL;
    for (int r = 0; v && r < 6; r++)
        for (int c = 0; c < 7; c++) same = same && v[r * 7 + c] - 7 * r == v[c], all = all && v[r * 7 + c] / 7 == r;
    CHECK(same && all, "permutation(x, axis=-1) moves whole columns: %s", ga_last_error_message());
    free(v);
    ga_release(p);
    /* shuffle of a strided view, in place: the same values, in a new order */
    ga_array *view = ga_index(x, "::2, 1::3");
    int32_t before[6], after[6];
    CHECK(view && download(view, before), "a strided view");
    CHECK_OK(ga_random_shuffle(g, view, 0));
    CHECK(download(view, after), "the shuffled view");
    int rows_kept = 0;
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++) rows_kept += after[2 * r] == before[2 * s] && after[2 * r + 1] == before[2 * s + 1];
    CHECK(rows_kept == 3, "shuffle moves whole rows of the view");
    ga_release(view);
    /* permuted: each row on its own (the shuffle above moved values between
       x's rows 0, 2 and 4: each row of q holds x's row as it is now); axis
       None: all 42 values once */
    ga_array *q = ga_random_permuted(g, x, 1, NULL), *f = ga_random_permuted(g, x, GA_AXIS_NONE, NULL);
    int32_t *xv = fetch(x), *qv = q ? fetch(q) : NULL, *fv = f ? fetch(f) : NULL;
    bool rows = qv != NULL && xv != NULL, flat = fv != NULL, differ = false;
    int seen[42] = {0}, row_of[42], column_of[42];
    for (int i = 0; xv && i < 42; i++) row_of[xv[i]] = i / 7, column_of[xv[i]] = i % 7;
    for (int r = 0; rows && r < 6; r++) {
        int row_seen[42] = {0};
        for (int c = 0; c < 7; c++) {
            const int v = qv[r * 7 + c];
            rows = rows && v >= 0 && v < 42 && row_of[v] == r && !row_seen[v]++;
        }
        /* the same order of positions in every row is a sign of one shared key */
        for (int c = 0; rows && r > 0 && c < 7; c++) differ = differ || column_of[qv[r * 7 + c]] != column_of[qv[c]];
    }
    for (int i = 0; fv && i < 42; i++) flat = flat && fv[i] >= 0 && fv[i] < 42 && !seen[fv[i]]++;
    CHECK(rows && differ, "permuted(x, axis=1) shuffles each row on its own: %s", ga_last_error_message());
    CHECK(flat && ga_ndim(f) == 2, "permuted(x, axis=None) keeps x's shape and values");
    free(xv), free(qv), free(fv);
    ga_release(q), ga_release(f);
    /* errors */
    ga_array *z = ga_index(x, "0, 0"), *ro = ga_broadcast_to(x, 2, shape), *small = ga_zeros(1, shape, GA_INT32);
    CHECK_ERROR(ga_random_permutation_array(g, z, 0) == NULL, GA_ERROR_INDEX, "x must be an integer or at least 1-dimensional");
    CHECK_ERROR(ga_random_permutation_array(g, x, 2) == NULL, GA_ERROR_AXIS, "axis 2 is out of bounds");
    CHECK_ERROR(ga_random_shuffle(g, ro, 0) != GA_OK, GA_ERROR_VALUE, "ga_random_shuffle: assignment destination is read-only");
    CHECK_ERROR(ga_random_permuted(g, x, 0, small) == NULL, GA_ERROR_VALUE, "out must have the same shape as x");
    ga_array *e = ga_random_permutation(g, -3);
    CHECK(e && ga_size(e) == 0, "permutation(-3) is empty, as NumPy's arange(-3)");
    ga_release(e), ga_release(z), ga_release(ro), ga_release(small), ga_release(x), ga_release(base);
    ga_generator_release(g);
}

/* integers over ranges that are not powers of two: Lemire's draw from each
   value's own stream, as the host computes it; the state moves on by one
   block a value, from the next whole block. */
DEVICE_TEST(random_device_integers_over_other_ranges)
{
    static const struct { ga_dtype t; int64_t low, high; } cases[] = {
        {GA_INT64, 0, 1000},      {GA_INT8, -100, 100},   {GA_UINT8, 3, 250},  {GA_INT16, -1, 30000},
        {GA_UINT32, 0, 3000000000ll}, {GA_INT32, -5, 7},  {GA_INT64, -(1ll << 40), (3ll << 40) + 3},
        {GA_UINT64, 1, INT64_MAX},
    };
    const uint32_t seed = 6006;
    const int64_t n = 2049;
    for (int c = 0; c < COUNT(cases); c++)
        for (int skip = 0; skip < 4; skip += 2) {
            const ga_dtype t = cases[c].t;
            ga_generator *g = skipped_rng(seed, skip);
            ga_random_state before;
            CHECK_OK(ga_random_get_state(g, &before));
            ga_array *a = ga_random_integers(g, ga_int(cases[c].low), ga_int(cases[c].high), 1, &n, t, false);
            CHECK(a && ga_dtype_of(a) == t, "integers(%lld, %lld) %s: %s", (long long)cases[c].low, (long long)cases[c].high,
                  ga_dtype_name(t), ga_last_error_message());
            unsigned char *got = a ? fetch(a) : NULL;
            const size_t size = ga_dtype_itemsize(t);
            const uint64_t range = (uint64_t)cases[c].high - (uint64_t)cases[c].low - 1;
            int64_t bad = -1;
            for (int64_t i = 0; got && i < n && bad < 0; i++) {
                host_stream h = host_stream_at(&before, (uint64_t)i);
                const uint64_t want = (uint64_t)cases[c].low + host_lemire(&h, range);
                uint64_t have = 0;
                memcpy(&have, got + (size_t)i * size, size);
                if (have != (size < 8 ? want & ((1ull << (8 * size)) - 1) : want)) bad = i;
            }
            CHECK(got && bad < 0, "integers(%lld, %lld) %s from word %d: value %lld differs from the host's",
                  (long long)cases[c].low, (long long)cases[c].high, ga_dtype_name(t), skip, (long long)bad);
            CHECK(state_moved_by(&before, g, (uint64_t)(skip ? 4 - skip : 0) + 4 * (uint64_t)n),
                  "integers over %llu values take one block a value, from the next whole block",
                  (unsigned long long)range + 1);
            free(got);
            ga_release(a);
            ga_generator_release(g);
        }
}

/* ---- integers with array bounds ----------------------------------------- */

TEST(random_integers_array_errors_before_the_device)
{
    const uint32_t seed = 12;
    const int64_t n3[1] = {3};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    const ga_operand zero = ga_operand_scalar(ga_int(0)), five = ga_operand_scalar(ga_int(5));
    CHECK_ERROR(ga_random_integers_array(g, zero, five, 1, n3, GA_FLOAT32, false) == NULL, GA_ERROR_TYPE,
                "ga_random_integers_array: Unsupported dtype float32 for integers");
    CHECK_ERROR(ga_random_integers_array(g, ga_operand_array(NULL), five, 1, n3, GA_INT64, false) == NULL,
                GA_ERROR_NULL_INPUT, "ga_random_integers_array: low is NULL");
    CHECK_ERROR(ga_random_integers_array(g, zero, ga_operand_array(NULL), 1, n3, GA_INT64, false) == NULL,
                GA_ERROR_NULL_INPUT, "ga_random_integers_array: high is NULL");
    CHECK_ERROR(ga_random_integers_array(g, ga_operand_scalar(ga_float(0.5)), five, 1, n3, GA_INT64, false) == NULL,
                GA_ERROR_TYPE, "ga_random_integers_array: low and high must be integers");
    /* two scalars are ga_random_integers, its errors named by this function */
    CHECK_ERROR(ga_random_integers_array(g, zero, zero, 1, n3, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "ga_random_integers_array: high <= 0");
    CHECK_ERROR(ga_random_integers_array(g, five, zero, 1, n3, GA_INT8, true) == NULL, GA_ERROR_VALUE,
                "ga_random_integers_array: low > high");
    CHECK_ERROR(ga_random_integers_array(g, ga_operand_scalar(ga_int(-129)), five, 1, n3, GA_INT8, false) == NULL,
                GA_ERROR_VALUE, "ga_random_integers_array: low is out of bounds for int8");
    CHECK_ERROR(ga_random_integers_array(g, zero, ga_operand_scalar(ga_int(257)), 0, NULL, GA_UINT8, false) == NULL,
                GA_ERROR_VALUE, "high is out of bounds for uint8");
    CHECK(state_moved_by(&before, g, 0), "failed draws take no words");
    ga_generator_release(g);
}

/* A case of integers_array: each bound a scalar (nd -1; its dtype int64
   for ga_int, uint64 for ga_uint) or an array of dtype lt / ht and shape
   (nd, shape), its values (as 64-bit words) in C order; the draw's size
   (size_nd -1: None) and the result's shape. */
typedef struct bounds_case {
    const char *what;
    ga_dtype t;
    bool endpoint;
    ga_dtype lt, ht;
    int lnd, hnd;
    int64_t lshape[2], hshape[2];
    uint64_t low[6], high[6];
    int size_nd;
    int64_t size[2];
    int nd;
    int64_t shape[2];
} bounds_case;

#define U64(x) ((uint64_t)(x))
static const bounds_case bounds_cases[] = {
    {"int8 low array, high scalar", GA_INT8, false, GA_INT8, GA_INT64, 1, -1, {5}, {0},
     {U64(-128), U64(-5), 0, 100, 127}, {128}, -1, {0}, 1, {5}},
    {"uint8 low scalar, high array, endpoint", GA_UINT8, true, GA_INT64, GA_UINT8, -1, 1, {0}, {5},
     {0}, {1, 2, 3, 255, 200}, -1, {0}, 1, {5}},
    {"int32 broadcast (3,1) by (4,)", GA_INT32, false, GA_INT32, GA_INT64, 2, 1, {3, 1}, {4},
     {U64(-2147483647 - 1), U64(-7), 1000}, {2000, 2147483647, 1001, 123456789}, -1, {0}, 2, {3, 4}},
    {"int16 from uint32 and int8 bounds, size (2,3)", GA_INT16, false, GA_INT8, GA_UINT32, 1, 0, {3}, {0},
     {U64(-128), 0, 127}, {32767}, 2, {2, 3}, 2, {2, 3}},
    {"int64 near 2**63, endpoint", GA_INT64, true, GA_INT64, GA_INT64, 1, 1, {6}, {6},
     {U64(INT64_MIN), U64(-1), 0, U64(INT64_MIN), 5, U64(INT64_MIN) + 1},
     {U64(INT64_MAX), U64(INT64_MAX), U64(INT64_MAX), 0, 6, U64(INT64_MAX)}, -1, {0}, 1, {6}},
    {"uint64 near 2**64, endpoint", GA_UINT64, true, GA_UINT64, GA_UINT64, 1, 1, {6}, {6},
     {0, 1, 0, U64(1) << 63, 5, 0},
     {UINT64_MAX, UINT64_MAX, U64(1) << 63, UINT64_MAX, (U64(1) << 63) + 3, (U64(1) << 32) - 1}, -1, {0}, 1, {6}},
    {"uint64 near 2**64", GA_UINT64, false, GA_UINT64, GA_UINT64, 1, 1, {5}, {5},
     {0, 1, 0, U64(1) << 63, 7}, {UINT64_MAX, UINT64_MAX, U64(1) << 63, UINT64_MAX, U64(1) << 32}, -1, {0}, 1, {5}},
    {"uint64 from a uint scalar high", GA_UINT64, false, GA_INT64, GA_UINT64, 1, -1, {3}, {0},
     {0, 3, U64(INT64_MAX)}, {UINT64_MAX}, -1, {0}, 1, {3}},
    {"bool from bool arrays, endpoint", GA_BOOL, true, GA_BOOL, GA_BOOL, 1, 1, {4}, {4}, {0, 0, 1, 0}, {1, 0, 1, 1},
     -1, {0}, 1, {4}},
};

/* Flat index into a bound of shape (nd, shape) of output element i of
   shape (out_nd, out): broadcasting's. */
static int64_t bound_index(int nd, const int64_t *shape, int out_nd, const int64_t *out, int64_t i)
{
    int64_t index = 0, stride = 1;
    for (int d = out_nd - 1, k = nd - 1; d >= 0; d--, k--) {
        const int64_t coord = i % out[d];
        i /= out[d];
        if (k < 0) continue;
        if (shape[k] != 1) index += coord * stride;
        stride *= shape[k];
    }
    return index;
}

/* A bound of a case: a scalar, or its values uploaded in its dtype. */
static ga_operand bound_operand(ga_dtype t, int nd, const int64_t *shape, const uint64_t *v, ga_array **made)
{
    *made = NULL;
    if (nd < 0) return ga_operand_scalar(t == GA_UINT64 ? ga_uint(v[0]) : ga_int((int64_t)v[0]));
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d];
    const size_t size = ga_dtype_itemsize(t);
    unsigned char bytes[6 * 8];
    for (int64_t i = 0; i < n; i++) memcpy(bytes + (size_t)i * size, &v[i], size); /* little-endian */
    *made = ga_from_host(bytes, nd, shape, t);
    return ga_operand_array(*made);
}

static void check_bounds_case(const bounds_case *c, int skip)
{
    ga_generator *g = skipped_rng(7007, skip);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array *la, *ha;
    const ga_operand lo = bound_operand(c->lt, c->lnd, c->lshape, c->low, &la);
    const ga_operand hi = bound_operand(c->ht, c->hnd, c->hshape, c->high, &ha);
    ga_array *a = ga_random_integers_array(g, lo, hi, c->size_nd < 0 ? 0 : c->size_nd, c->size_nd < 0 ? NULL : c->size,
                                           c->t, c->endpoint);
    bool shaped = a && ga_dtype_of(a) == c->t && ga_ndim(a) == c->nd;
    int64_t n = 1;
    for (int d = 0; d < c->nd; d++) n *= c->shape[d], shaped = shaped && ga_shape(a)[d] == c->shape[d];
    CHECK(shaped, "integers_array %s: the result's dtype and shape: %s", c->what, ga_last_error_message());
    unsigned char *got = shaped ? fetch(a) : NULL;
    const size_t size = ga_dtype_itemsize(c->t);
    int64_t bad = -1;
    uint64_t want = 0, have = 0;
    for (int64_t i = 0; got && i < n && bad < 0; i++) {
        const uint64_t l = c->low[c->lnd < 0 ? 0 : bound_index(c->lnd, c->lshape, c->nd, c->shape, i)];
        const uint64_t h = c->high[c->hnd < 0 ? 0 : bound_index(c->hnd, c->hshape, c->nd, c->shape, i)];
        const uint64_t range = h - l - (c->endpoint ? 0 : 1);
        host_stream s = host_stream_at(&before, (uint64_t)i);
        uint64_t v;
        if (range == UINT64_MAX) { /* 2**64 values: the raw word, the low half first */
            const uint64_t w0 = host_next32(&s);
            v = (uint64_t)host_next32(&s) << 32 | w0;
        } else {
            v = host_lemire(&s, range);
        }
        want = l + v, have = 0;
        if (size < 8) want &= (1ull << (8 * size)) - 1;
        memcpy(&have, got + (size_t)i * size, size);
        if (have != want || (v > range && range != UINT64_MAX)) bad = i;
    }
    CHECK(got && bad < 0, "integers_array %s from word %d: value %lld is %llu, the host's %llu", c->what, skip,
          (long long)bad, (unsigned long long)have, (unsigned long long)want);
    CHECK(state_moved_by(&before, g, (uint64_t)(skip ? 4 - skip : 0) + 4 * (uint64_t)n),
          "integers_array %s takes one block a value, from the next whole block", c->what);
    free(got);
    ga_release(a), ga_release(la), ga_release(ha);
    ga_generator_release(g);
}

/* Every value against the host's Lemire draw over its own range from its
   own stream: 8- to 64-bit dtypes, ranges of 2**63 and 2**64 values (the
   raw word), broadcasting, a size, scalars and arrays mixed, endpoint. */
DEVICE_TEST(random_device_integers_array_values)
{
    for (int c = 0; c < COUNT(bounds_cases); c++)
        for (int skip = 0; skip < 4; skip += 3) check_bounds_case(&bounds_cases[c], skip);
}

/* NumPy's checks of array bounds, in NumPy's order, and empty draws. */
DEVICE_TEST(random_device_integers_array_errors)
{
    const uint32_t seed = 21;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    const int64_t two[1] = {2}, three[1] = {3};
    const int16_t l_out[2] = {-200, 1}, l_big[2] = {200, 1}, h_out[2] = {5, 200}, l_ok[2] = {3, 1}, zeros[2] = {0, 0};
    const int16_t h_zero[2] = {0, -1}, h_128[2] = {1, 128};
    const int64_t l_neg[2] = {-1, 1};
    const uint64_t big[1] = {1ull << 63}, big_plus[1] = {(1ull << 63) + 1};
    const double lf[2] = {0, 1};
    ga_array *a_out = ga_from_host(l_out, 1, two, GA_INT16), *a_big = ga_from_host(l_big, 1, two, GA_INT16);
    ga_array *a_hout = ga_from_host(h_out, 1, two, GA_INT16), *a_ok = ga_from_host(l_ok, 1, two, GA_INT16);
    ga_array *a_zero = ga_from_host(zeros, 1, two, GA_INT16), *a_hzero = ga_from_host(h_zero, 1, two, GA_INT16);
    ga_array *a_128 = ga_from_host(h_128, 1, two, GA_INT16), *a_neg = ga_from_host(l_neg, 1, two, GA_INT64);
    const int64_t one[1] = {1};
    ga_array *a_u63 = ga_from_host(big, 1, one, GA_UINT64);
    ga_array *a_u63p = ga_from_host(big_plus, 1, one, GA_UINT64), *a_f = ga_from_host(lf, 1, two, GA_FLOAT64);
    ga_array *a_three = ga_zeros(1, three, GA_INT8);
    const ga_operand s0 = ga_operand_scalar(ga_int(0)), s3 = ga_operand_scalar(ga_int(3)), s2 = ga_operand_scalar(ga_int(2));
    const ga_operand s500 = ga_operand_scalar(ga_int(500)), smax = ga_operand_scalar(ga_uint(UINT64_MAX));
#define INTS(lo, hi, t, e) ga_random_integers_array(g, lo, hi, 0, NULL, t, e)
    CHECK_ERROR(INTS(ga_operand_array(a_out), s3, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "ga_random_integers_array: low is out of bounds for int8");
    CHECK_ERROR(INTS(ga_operand_array(a_out), s500, GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "low is out of bounds for int8"); /* low's check first */
    CHECK_ERROR(INTS(s0, ga_operand_array(a_hout), GA_INT8, false) == NULL, GA_ERROR_VALUE, "high is out of bounds for int8");
    CHECK_ERROR(INTS(ga_operand_array(a_ok), ga_operand_array(a_hout), GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "high is out of bounds for int8"); /* before low >= high */
    CHECK_ERROR(INTS(s0, ga_operand_array(a_128), GA_INT8, true) == NULL, GA_ERROR_VALUE, "high is out of bounds for int8");
    CHECK_ERROR(INTS(ga_operand_array(a_ok), s3, GA_INT8, false) == NULL, GA_ERROR_VALUE, "ga_random_integers_array: low >= high");
    CHECK_ERROR(INTS(ga_operand_array(a_ok), s2, GA_INT8, true) == NULL, GA_ERROR_VALUE, "ga_random_integers_array: low > high");
    CHECK_ERROR(INTS(ga_operand_array(a_big), ga_operand_array(a_128), GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "low >= high"); /* a low above int8 in a small dtype: NumPy's comparison */
    CHECK_ERROR(INTS(ga_operand_array(a_zero), ga_operand_array(a_hzero), GA_INT8, false) == NULL, GA_ERROR_VALUE,
                "ga_random_integers_array: high <= 0");
    CHECK_ERROR(INTS(ga_operand_array(a_zero), ga_operand_array(a_hzero), GA_INT8, true) == NULL, GA_ERROR_VALUE,
                "ga_random_integers_array: high < 0");
    CHECK_ERROR(INTS(ga_operand_array(a_neg), s3, GA_UINT64, false) == NULL, GA_ERROR_VALUE, "low is out of bounds for uint64");
    CHECK_ERROR(INTS(ga_operand_array(a_u63), smax, GA_INT64, false) == NULL, GA_ERROR_VALUE, "low is out of bounds for int64");
    CHECK_ERROR(INTS(s0, ga_operand_array(a_u63p), GA_INT64, false) == NULL, GA_ERROR_VALUE, "high is out of bounds for int64");
    CHECK_ERROR(INTS(ga_operand_array(a_f), s3, GA_INT64, false) == NULL, GA_ERROR_TYPE,
                "ga_random_integers_array: low and high must be integers");
    CHECK_ERROR(INTS(ga_operand_array(a_ok), ga_operand_array(a_three), GA_INT8, false) == NULL, GA_ERROR_SHAPE,
                "shape mismatch: objects cannot be broadcast to a single shape");
    CHECK_ERROR(ga_random_integers_array(g, ga_operand_array(a_ok), s3, 1, three, GA_INT64, false) == NULL, GA_ERROR_SHAPE,
                "shape mismatch");
    const uint32_t nseed = 4;
    ga_generator *numpy = ga_random_philox(&nseed, 1);
    CHECK_ERROR(ga_random_integers_array(numpy, s0, ga_operand_array(a_128), 0, NULL, GA_INT16, false) == NULL,
                GA_ERROR_NOT_IMPLEMENTED, "draws of the Philox (NumPy) bit generator on the device are not implemented yet");
    ga_generator_release(numpy);
#undef INTS
    CHECK(state_moved_by(&before, g, 0), "failed draws take no words");
    /* empty draws: a size without elements is not checked (NumPy's), empty
       bounds give an empty broadcast shape; neither takes words */
    const int64_t none[1] = {0}, rows0[2] = {0, 2};
    ga_array *e1 = ga_random_integers_array(g, ga_operand_array(a_out), s3, 1, none, GA_INT8, false);
    CHECK(e1 && ga_size(e1) == 0 && ga_ndim(e1) == 1 && ga_dtype_of(e1) == GA_INT8, "integers_array(size=0): %s",
          ga_last_error_message());
    ga_array *z = ga_zeros(2, rows0, GA_INT32);
    ga_array *e2 = ga_random_integers_array(g, ga_operand_array(z), s3, 0, NULL, GA_INT64, false);
    CHECK(e2 && ga_size(e2) == 0 && ga_ndim(e2) == 2 && ga_shape(e2)[0] == 0 && ga_shape(e2)[1] == 2,
          "integers_array of (0, 2) bounds: %s", ga_last_error_message());
    CHECK(state_moved_by(&before, g, 0), "empty draws take no words");
    ga_release(e1), ga_release(e2), ga_release(z);
    ga_release(a_out), ga_release(a_big), ga_release(a_hout), ga_release(a_ok), ga_release(a_zero), ga_release(a_hzero);
    ga_release(a_128), ga_release(a_neg), ga_release(a_u63), ga_release(a_u63p), ga_release(a_f), ga_release(a_three);
    ga_generator_release(g);
}

/* ---- out= ------------------------------------------------------------------ */

/* out= draws: out's memory gets what a new array of its size would get from
   the same state, and the state moves on as far. */
typedef enum out_draw { OUT_RANDOM, OUT_NORMAL, OUT_EXPONENTIAL, OUT_GAMMA } out_draw;
static const char *const out_draw_names[4] = {"random", "standard_normal", "standard_exponential", "standard_gamma"};

static ga_array *draw_new(out_draw d, ga_generator *g, int64_t n, ga_dtype t)
{
    switch (d) {
    case OUT_RANDOM: return ga_random_random(g, 1, &n, t);
    case OUT_NORMAL: return ga_random_standard_normal(g, 1, &n, t);
    case OUT_EXPONENTIAL: return ga_random_standard_exponential(g, 1, &n, t);
    default: return ga_random_standard_gamma(g, 2.5, 1, &n, t);
    }
}

static ga_status draw_out(out_draw d, ga_generator *g, ga_array *out)
{
    switch (d) {
    case OUT_RANDOM: return ga_random_random_out(g, out);
    case OUT_NORMAL: return ga_random_standard_normal_out(g, out);
    case OUT_EXPONENTIAL: return ga_random_standard_exponential_out(g, out);
    default: return ga_random_standard_gamma_out(g, 2.5, out);
    }
}

/* g's state copied into a new generator (ga_random_get_state / set_state). */
static ga_generator *state_copy(const ga_generator *g)
{
    const uint32_t other = 1;
    ga_random_state s;
    ga_generator *h = ga_random_bit_generator(g) == GA_PHILOX4X64 ? ga_random_philox(&other, 1) : ga_random_default_rng(&other, 1);
    if (!h || ga_random_get_state(g, &s) != GA_OK || ga_random_set_state(h, &s) != GA_OK) ga_generator_release(h), h = NULL;
    return h;
}

/* out (its memory, `base` where out is a view of it) against the new-array
   draw of a copy of g's state; then the states. */
static void check_out(out_draw d, ga_generator *g, ga_array *out, const ga_array *base, const char *what)
{
    ga_generator *h = state_copy(g);
    const ga_dtype t = ga_dtype_of(out);
    ga_array *want = h ? draw_new(d, h, ga_size(out), t) : NULL;
    CHECK_OK(draw_out(d, g, out));
    void *x = want ? fetch(want) : NULL, *y = fetch(base);
    CHECK(x && y && memcmp(x, y, ga_nbytes(want)) == 0, "%s(out=%s %s) is the new array's draw: %s", out_draw_names[d],
          ga_dtype_name(t), what, ga_last_error_message());
    ga_random_state sg, sh;
    CHECK(h && ga_random_get_state(g, &sg) == GA_OK && ga_random_get_state(h, &sh) == GA_OK && same_state(&sg, &sh),
          "%s(out=%s %s) moves the state as the new array's draw", out_draw_names[d], ga_dtype_name(t), what);
    free(x), free(y);
    ga_release(want);
    ga_generator_release(h);
}

DEVICE_TEST(random_device_out_is_the_new_arrays_draw)
{
    const uint32_t seed = 31;
    const int64_t shape[2] = {37, 41};
    const int t_axes[2] = {1, 0};
    for (int d = 0; d < 4; d++)
        for (int f64 = 0; f64 < 2; f64++) {
            const ga_dtype t = f64 ? GA_FLOAT64 : GA_FLOAT32;
            ga_generator *g = skipped_rng(seed, d + f64); /* from several places in a block */
            ga_array *out = ga_empty(2, shape, t);
            check_out((out_draw)d, g, out, out, "C-contiguous");
            if (d != OUT_GAMMA) { /* NumPy fills an F-contiguous out in memory order */
                ga_array *ft = ga_transpose(out, t_axes);
                check_out((out_draw)d, g, ft, out, "F-contiguous");
                ga_release(ft);
            }
            ga_release(out);
            ga_generator_release(g);
        }
    /* NumPy's Philox: random(out=) is NumPy's values, as random() */
    ga_generator *numpy = ga_random_philox(&seed, 1);
    const int64_t n = 1001;
    for (int f64 = 0; f64 < 2; f64++) {
        ga_array *out = ga_empty(1, &n, f64 ? GA_FLOAT64 : GA_FLOAT32);
        check_out(OUT_RANDOM, numpy, out, out, "NumPy's Philox");
        ga_release(out);
    }
    ga_generator_release(numpy);
}

/* NumPy's check_output errors, before anything is drawn. */
DEVICE_TEST(random_device_out_errors)
{
    const uint32_t seed = 32;
    const int64_t shape[2] = {4, 6};
    const int t_axes[2] = {1, 0};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array *x = ga_zeros(2, shape, GA_FLOAT64), *ints = ga_zeros(2, shape, GA_INT32), *halves = ga_zeros(2, shape, GA_FLOAT16);
    ga_array *strided = ga_index(x, ":, ::2"), *ro = ga_broadcast_to(x, 2, shape), *ft = ga_transpose(x, t_axes);
    for (int d = 0; d < 4; d++) {
        CHECK_ERROR(draw_out((out_draw)d, g, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "out is NULL");
        CHECK_ERROR(draw_out((out_draw)d, g, strided) != GA_OK, GA_ERROR_VALUE,
                    d == OUT_GAMMA ? "Supplied output array must be C-contiguous, writable, aligned, and in machine byte-order."
                                   : "Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
        CHECK_ERROR(draw_out((out_draw)d, g, ro) != GA_OK, GA_ERROR_VALUE, "contiguous, writable, aligned");
        CHECK_ERROR(draw_out((out_draw)d, g, ints) != GA_OK, GA_ERROR_TYPE,
                    "Supplied output array has the wrong type. Expected float64, got int32");
        CHECK_ERROR(draw_out((out_draw)d, g, halves) != GA_OK, GA_ERROR_TYPE, "Expected float64, got float16");
    }
    CHECK_ERROR(ga_random_random_out(g, ints) != GA_OK, GA_ERROR_TYPE, "ga_random_random_out: Supplied output array");
    CHECK_ERROR(ga_random_standard_gamma_out(g, 1.0, ft) != GA_OK, GA_ERROR_VALUE,
                "ga_random_standard_gamma_out: Supplied output array must be C-contiguous");
    CHECK_ERROR(ga_random_standard_gamma_out(g, -1.0, ft) != GA_OK, GA_ERROR_VALUE, "must be C-contiguous"); /* out first */
    CHECK_ERROR(ga_random_standard_gamma_out(g, -1.0, x) != GA_OK, GA_ERROR_VALUE, "ga_random_standard_gamma_out: shape < 0");
    const uint32_t nseed = 3;
    ga_generator *numpy = ga_random_philox(&nseed, 1);
    CHECK_ERROR(ga_random_standard_normal_out(numpy, x) != GA_OK, GA_ERROR_NOT_IMPLEMENTED,
                "ga_random_standard_normal_out: draws of the Philox (NumPy) bit generator");
    CHECK_ERROR(ga_random_standard_exponential_out(numpy, x) != GA_OK, GA_ERROR_NOT_IMPLEMENTED, "draws of the Philox");
    ga_generator_release(numpy);
    CHECK(state_moved_by(&before, g, 0), "refused outs take no words");
    /* an empty out takes no words */
    const int64_t none[2] = {0, 3};
    ga_array *e = ga_empty(2, none, GA_FLOAT32);
    for (int d = 0; d < 4; d++) CHECK_OK(draw_out((out_draw)d, g, e));
    CHECK(state_moved_by(&before, g, 0), "an empty out takes no words");
    ga_release(e), ga_release(x), ga_release(ints), ga_release(halves), ga_release(strided), ga_release(ro), ga_release(ft);
    ga_generator_release(g);
}

/* ---- statistics of every distribution ----------------------------------- */

/* Each distribution at parameters that reach its algorithms' branches
   (the rejection samplers' small and large shapes, the inversion and
   search regimes), 2**20 values of a fixed seed judged on the host
   (tests/random_stats.h): a Kolmogorov-Smirnov test against the exact CDF
   or a chi-square test against the exact PMF (p above 1e-6), and the
   sample mean and variance within 6 standard errors where they are finite.
   Each case prints its p-value and z-scores. */
typedef struct stat_case {
    ga_distribution d;
    double v[3];
    ga_dtype dtype; /* GA_DTYPE_INVALID: the distribution's own */
} stat_case;

static const stat_case stat_cases[] = {
    {GA_RANDOM_UNIFORM, {-2, 5}, 0},
    {GA_RANDOM_NORMAL, {1.5, 3}, 0},
    {GA_RANDOM_LOGNORMAL, {0.5, 0.75}, 0},
    {GA_RANDOM_STANDARD_EXPONENTIAL, {0}, GA_FLOAT64},
    {GA_RANDOM_STANDARD_EXPONENTIAL, {0}, GA_FLOAT32},
    {GA_RANDOM_EXPONENTIAL, {2.5}, 0},
    {GA_RANDOM_LAPLACE, {1, 2}, 0},
    {GA_RANDOM_LOGISTIC, {-1, 0.5}, 0},
    {GA_RANDOM_GUMBEL, {0.5, 2}, 0},
    {GA_RANDOM_WEIBULL, {1.7}, 0},
    {GA_RANDOM_WEIBULL, {0.5}, 0},
    {GA_RANDOM_PARETO, {3}, 0},
    {GA_RANDOM_POWER, {0.6}, 0},
    {GA_RANDOM_RAYLEIGH, {2}, 0},
    {GA_RANDOM_STANDARD_CAUCHY, {0}, 0},
    {GA_RANDOM_TRIANGULAR, {-1, 0.5, 4}, 0},
    {GA_RANDOM_TRIANGULAR, {0, 0, 1}, 0},
    {GA_RANDOM_GEOMETRIC, {0.3}, 0},
    {GA_RANDOM_GEOMETRIC, {0.9}, 0},
    {GA_RANDOM_GEOMETRIC, {0.001}, 0},
    {GA_RANDOM_STANDARD_GAMMA, {2.5}, GA_FLOAT64},
    {GA_RANDOM_STANDARD_GAMMA, {0.3}, GA_FLOAT64},
    {GA_RANDOM_STANDARD_GAMMA, {1}, GA_FLOAT64},
    {GA_RANDOM_STANDARD_GAMMA, {2.5}, GA_FLOAT32},
    {GA_RANDOM_STANDARD_GAMMA, {0.3}, GA_FLOAT32},
    {GA_RANDOM_GAMMA, {3, 0.5}, 0},
    {GA_RANDOM_BETA, {0.5, 0.5}, 0},
    {GA_RANDOM_BETA, {2, 5}, 0},
    {GA_RANDOM_CHISQUARE, {3}, 0},
    {GA_RANDOM_NONCENTRAL_CHISQUARE, {3, 2}, 0},
    {GA_RANDOM_NONCENTRAL_CHISQUARE, {0.5, 1}, 0},
    {GA_RANDOM_F, {5, 10}, 0},
    {GA_RANDOM_NONCENTRAL_F, {5, 10, 2}, 0},
    {GA_RANDOM_STANDARD_T, {4}, 0},
    {GA_RANDOM_STANDARD_T, {0.5}, 0},
    {GA_RANDOM_VONMISES, {1, 4}, 0},
    {GA_RANDOM_VONMISES, {0, 0.5}, 0},
    {GA_RANDOM_VONMISES, {-2, 1e-9}, 0},
    {GA_RANDOM_WALD, {1, 2}, 0},
    {GA_RANDOM_POISSON, {4}, 0},
    {GA_RANDOM_POISSON, {0.5}, 0},
    {GA_RANDOM_POISSON, {30}, 0},
    {GA_RANDOM_POISSON, {1e5}, 0},
    {GA_RANDOM_BINOMIAL, {20, 0.3}, 0},
    {GA_RANDOM_BINOMIAL, {1000, 0.5}, 0},
    {GA_RANDOM_BINOMIAL, {5, 0.99}, 0},
    {GA_RANDOM_BINOMIAL, {200, 0.9}, 0},
    {GA_RANDOM_NEGATIVE_BINOMIAL, {5, 0.4}, 0},
    {GA_RANDOM_NEGATIVE_BINOMIAL, {0.7, 0.05}, 0},
    {GA_RANDOM_HYPERGEOMETRIC, {20, 30, 10}, 0},
    {GA_RANDOM_HYPERGEOMETRIC, {500, 400, 300}, 0},
    {GA_RANDOM_LOGSERIES, {0.6}, 0},
    {GA_RANDOM_LOGSERIES, {0.99}, 0},
    {GA_RANDOM_ZIPF, {2.5}, 0},
    {GA_RANDOM_ZIPF, {1.5}, 0},
};

/* Judges n values x (doubles) or k (integers) of case c; false with a
   message where a test rejects. */
static bool judge_case(const stat_case *c, double *x, int64_t *k, size_t n, char *line, size_t cap)
{
    const char *name = ga_random_distribution_name(c->d);
    const ga_stats_dist *law = ga_stats_find(name);
    if (!law) {
        snprintf(line, cap, "%s: no law in random_stats.h", name);
        return false;
    }
    const double mu = law->mean(c->v), var = law->var(c->v);
    const ga_moments m = k ? ga_moments_of_i64(k, n) : ga_moments_of(x, n);
    double p, stat;
    int df = 0;
    if (law->cdf) p = ga_ks_pvalue(x, n, law->cdf, c->v, &stat);
    else p = ga_chi2_pvalue(k, n, law->pmf, c->v, &stat, &df);
    /* the moments where they exist: the variance's s.e. needs a 4th moment */
    const bool mean_ok = !isfinite(mu) || !isfinite(var) || fabs(ga_mean_z(&m, mu, var)) < 6;
    const double vz = isfinite(var) ? ga_var_z(&m, var, NAN) : 0;
    const bool var_ok = !isfinite(var) || !isfinite(vz) || fabs(vz) < 6;
    snprintf(line, cap, "%s(%g, %g, %g)%s: %s p = %.3g, mean z = %.2f, var z = %.2f", name, c->v[0], c->v[1], c->v[2],
             c->dtype == GA_FLOAT32 ? " float32" : "", law->cdf ? "KS" : "chi-square", p,
             isfinite(var) ? ga_mean_z(&m, mu, var) : 0.0, vz);
    return p > 1e-6 && mean_ok && var_ok;
}

DEVICE_TEST(random_device_distributions_pass_their_statistical_tests)
{
    const int64_t n = (int64_t)1 << 20;
    for (int c = 0; c < COUNT(stat_cases); c++) {
        const stat_case *sc = &stat_cases[c];
        const uint32_t seed = 1000 + (uint32_t)c;
        ga_generator *g = ga_random_default_rng(&seed, 1);
        ga_operand p[3];
        for (int k = 0; k < 3; k++) p[k] = ga_operand_scalar(ga_float(sc->v[k]));
        ga_array *a = ga_random_call(g, sc->d, p, 1, &n, sc->dtype ? sc->dtype : GA_DTYPE_INVALID);
        void *h = a ? fetch(a) : NULL;
        double *x = NULL;
        int64_t *k = NULL;
        if (h && ga_dtype_of(a) == GA_INT64) {
            k = (int64_t *)h;
        } else if (h && ga_dtype_of(a) == GA_FLOAT32) {
            x = malloc(sizeof(double) * (size_t)n);
            for (int64_t i = 0; x && i < n; i++) x[i] = ((float *)h)[i];
        } else if (h) {
            x = (double *)h;
        }
        char line[256];
        const bool ok = (x || k) && judge_case(sc, x, k, (size_t)n, line, sizeof line);
        CHECK(ok, "%s", (x || k) ? line : ga_last_error_message());
        if (x || k) printf("    %s\n", line);
        if (x && x != h) free(x);
        free(h);
        ga_release(a);
        ga_generator_release(g);
    }
    /* integers over a range that is not a power of two, through the
       chi-square test of k / 10 (the PMF summed over bins of 10) */
    const uint32_t seed = 77;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *a = ga_random_integers(g, ga_int(-500), ga_int(500), 1, &n, GA_INT64, false);
    int64_t *k = a ? fetch(a) : NULL;
    for (int64_t i = 0; k && i < n; i++) k[i] = (k[i] + 500) / 10;
    check_uniform_values(k, n, 100, "integers(-500, 500) in bins of 10");
    free(k);
    ga_release(a);
    ga_generator_release(g);
}

/* ---- choice --------------------------------------------------------------- */

DEVICE_TEST(random_device_choice)
{
    const uint32_t seed = 321;
    const int64_t shape[2] = {3, 5}, n15 = 15, n7 = 13;
    /* with replacement: integers(0, a); without, above a / 4: the head of a permutation */
    ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
    ga_array *c1 = ga_random_choice(g, 1000, 2, shape, true, NULL), *i1 = ga_random_integers(h, ga_int(0), ga_int(1000), 1, &n15, GA_INT64, false);
    ga_array *c2 = ga_random_choice(g, 50, 1, &n7, false, NULL), *p2 = ga_random_permutation(h, 50);
    int64_t *a1 = c1 ? fetch(c1) : NULL, *b1 = i1 ? fetch(i1) : NULL, *a2 = c2 ? fetch(c2) : NULL, *b2 = p2 ? fetch(p2) : NULL;
    CHECK(a1 && b1 && ga_ndim(c1) == 2 && memcmp(a1, b1, 15 * 8) == 0, "choice(1000, (3, 5)) is integers(0, 1000): %s",
          ga_last_error_message());
    CHECK(a2 && b2 && memcmp(a2, b2, 13 * 8) == 0, "choice(50, 13, replace=False) is permutation(50)[:13]: %s",
          ga_last_error_message());
    free(a1), free(b1), free(a2), free(b2);
    ga_release(c1), ga_release(i1), ga_release(c2), ga_release(p2);
    /* with p: the frequencies of 2**18 draws within 6 standard errors, none of a 0 */
    const double pv[4] = {0.1, 0, 0.6, 0.3};
    const int64_t four = 4, many = (int64_t)1 << 18, three = 3;
    ga_array *p = ga_from_host(pv, 1, &four, GA_FLOAT64);
    ga_array *w = ga_random_choice(g, 4, 1, &many, true, p);
    int64_t *k = w ? fetch(w) : NULL;
    int64_t counts[4] = {0, 0, 0, 0};
    bool inside = k != NULL;
    for (int64_t i = 0; k && i < many; i++) inside = inside && k[i] >= 0 && k[i] < 4 && ++counts[k[i]];
    for (int j = 0; inside && j < 4; j++) {
        const double e = pv[j] * (double)many, se = sqrt(pv[j] * (1 - pv[j]) * (double)many);
        CHECK(fabs((double)counts[j] - e) <= 6 * se, "choice with p: index %d came %lld times, %.0f expected", j,
              (long long)counts[j], e);
    }
    CHECK(inside, "choice with p: indices in range: %s", ga_last_error_message());
    free(k);
    ga_release(w);
    /* without replacement, with p: distinct, never the index of p = 0 */
    for (int t = 0; t < 50; t++) {
        ga_array *u = ga_random_choice(g, 4, 1, &three, false, p);
        int64_t v[3] = {-1, -1, -1};
        CHECK(u && download(u, v) && v[0] != v[1] && v[1] != v[2] && v[0] != v[2] && v[0] != 1 && v[1] != 1 && v[2] != 1,
              "choice(4, 3, replace=False, p) draws distinct indices of p > 0: %s", ga_last_error_message());
        ga_release(u);
    }
    /* from an array, along an axis */
    const int64_t rows[2] = {6, 4}, two = 2;
    ga_array *flat = ga_arange_int(0, 24, 1, GA_INT32), *x = ga_reshape(flat, 2, rows);
    ga_array *r = ga_random_choice_array(g, x, 1, &two, false, NULL, 1);
    int32_t *rv = r ? fetch(r) : NULL;
    bool cols = rv != NULL && ga_shape(r)[0] == 6 && ga_shape(r)[1] == 2;
    for (int i = 0; cols && i < 6; i++) cols = rv[2 * i] - 4 * i == rv[0] && rv[2 * i + 1] - 4 * i == rv[1] && rv[0] != rv[1];
    CHECK(cols, "choice(x, 2, replace=False, axis=1) takes whole columns: %s", ga_last_error_message());
    free(rv);
    ga_release(r);
    /* errors */
    const double bad_sum[4] = {0.5, 0.5, 0.5, 0}, bad_neg[4] = {1.5, -0.5, 0, 0}, bad_nan[4] = {NAN, 0, 0, 1};
    ga_array *ps = ga_from_host(bad_sum, 1, &four, GA_FLOAT64), *pn = ga_from_host(bad_neg, 1, &four, GA_FLOAT64);
    ga_array *pq = ga_from_host(bad_nan, 1, &four, GA_FLOAT64), *p2d = ga_reshape(p, 2, (const int64_t[]){2, 2});
    CHECK_ERROR(ga_random_choice(g, 0, 1, &three, true, NULL) == NULL, GA_ERROR_VALUE,
                "ga_random_choice: a must be a positive integer unless no samples are taken");
    CHECK_ERROR(ga_random_choice(g, 2, 1, &three, false, NULL) == NULL, GA_ERROR_VALUE,
                "Cannot take a larger sample than population when replace is False");
    CHECK_ERROR(ga_random_choice(g, 4, 1, &three, true, ps) == NULL, GA_ERROR_VALUE, "Probabilities do not sum to 1.");
    CHECK_ERROR(ga_random_choice(g, 4, 1, &three, true, pn) == NULL, GA_ERROR_VALUE, "Probabilities are not non-negative");
    CHECK_ERROR(ga_random_choice(g, 4, 1, &three, true, pq) == NULL, GA_ERROR_VALUE, "Probabilities contain NaN");
    CHECK_ERROR(ga_random_choice(g, 4, 1, &three, true, p2d) == NULL, GA_ERROR_VALUE, "p must be 1-dimensional");
    CHECK_ERROR(ga_random_choice(g, 5, 1, &three, true, p) == NULL, GA_ERROR_VALUE, "a and p must have same size");
    const int64_t four_draws = 4;
    CHECK_ERROR(ga_random_choice(g, 4, 1, &four_draws, false, p) == NULL, GA_ERROR_VALUE, "Fewer non-zero entries in p than size");
    ga_array *e = ga_zeros(1, (const int64_t[]){0}, GA_FLOAT32);
    CHECK_ERROR(ga_random_choice_array(g, e, 1, &three, true, NULL, 0) == NULL, GA_ERROR_VALUE,
                "a cannot be empty unless no samples are taken");
    ga_array *none = ga_random_choice(g, 0, 1, (const int64_t[]){0}, true, NULL);
    CHECK(none && ga_size(none) == 0, "choice(0, 0) is empty: %s", ga_last_error_message());
    ga_array *scalar = ga_random_choice(g, 10, 0, NULL, true, NULL);
    CHECK(scalar && ga_ndim(scalar) == 0, "choice(10) is 0-d: %s", ga_last_error_message());
    ga_release(none), ga_release(scalar), ga_release(e), ga_release(ps), ga_release(pn), ga_release(pq), ga_release(p2d);
    ga_release(p), ga_release(x), ga_release(flat);
    ga_generator_release(g), ga_generator_release(h);
}

/* The draws of sequential sampling hold k distinct values with all but a
   negligible chance: m >= k, below 2**32, and the expected distinct values
   n (1 - e**(-m/n)) at least k and eight standard deviations (sqrt(k**2 /
   2n), the duplicates' about). */
TEST(random_choice_draws_margin)
{
    static const int64_t cases[][2] = {{4, 1}, {1000, 250}, {1001, 7}, {10000000, 1000000}, {10000000, 2500000},
                                       {(int64_t)1 << 31, 1}, {4294967295ll, 1073741823ll}, {100, 25}};
    for (int c = 0; c < COUNT(cases); c++) {
        const int64_t n = cases[c][0], k = cases[c][1], m = ga__choice_draws(n, k);
        const double dn = (double)n, distinct = dn * -expm1(-(double)m / dn), sd = sqrt((double)k * (double)k / (2 * dn));
        CHECK(m >= k && m <= (int64_t)UINT32_MAX && distinct >= (double)k + 8 * sd,
              "choice(%lld, %lld): %lld draws, %.1f distinct expected", (long long)n, (long long)k, (long long)m, distinct);
    }
}

/* choice(n, k, replace=False) by sequential sampling on the host, n not a
   power of two: m = ga__choice_draws(n, k) values of integers(0, n), value
   i Lemire's draw from its own stream at state s, their first k distinct
   values in draw order (*distinct: how many there were). */
static int64_t *host_sequential(const ga_random_state *s, int64_t n, int64_t k, int64_t *distinct)
{
    const int64_t m = ga__choice_draws(n, k);
    uint8_t *seen = calloc((size_t)n, 1);
    int64_t *out = malloc(sizeof(int64_t) * (size_t)(k + 1));
    *distinct = 0;
    for (int64_t i = 0; seen && out && i < m; i++) {
        host_stream h = host_stream_at(s, (uint64_t)i);
        const int64_t v = (int64_t)host_lemire(&h, (uint64_t)(n - 1));
        if (seen[v]) continue;
        seen[v] = 1;
        if (*distinct < k) out[*distinct] = v;
        ++*distinct;
    }
    if (!seen) free(out), out = NULL;
    free(seen);
    return out;
}

/* choice without replacement for k <= n / 4: the host's sequential
   sampling exactly (the state moving on by a block a draw), distinct values
   in range, the same seed's same sample, the first value uniform
   (chi-square), and the edges k = 0 and k = n. Populations of at most 32 x
   the draws find first occurrences by slots, larger ones by sorting: 1001
   and 2^20 + 1 take the sort. */
DEVICE_TEST(random_device_choice_sequential)
{
    static const int64_t cases[][2] = {{1000, 250}, {1001, 7}, {10000000, 1000000}, {3, 0}, {(1 << 20) + 1, 3000}};
    const uint32_t seed = 99;
    for (int c = 0; c < COUNT(cases); c++)
        for (int skip = 0; skip < 4; skip += 3) {
            const int64_t n = cases[c][0], k = cases[c][1];
            ga_generator *g = skipped_rng(seed, skip), *h = skipped_rng(seed, skip);
            ga_random_state before, got_state;
            CHECK_OK(ga_random_get_state(g, &before));
            int64_t distinct = 0, *want = k ? host_sequential(&before, n, k, &distinct) : NULL;
            ga_random_state want_state = before;
            if (k && want_state.buffer_pos) ga__random_4x32_skip(&want_state, (uint64_t)(4 - want_state.buffer_pos));
            if (k) ga__random_4x32_skip(&want_state, 4 * (uint64_t)ga__choice_draws(n, k));
            ga_array *a = ga_random_choice(g, n, 1, &k, false, NULL), *b = ga_random_choice(h, n, 1, &k, false, NULL);
            int64_t *got = a ? fetch(a) : NULL, *again = b ? fetch(b) : NULL;
            CHECK(got && again && ga_size(a) == k && ga_dtype_of(a) == GA_INT64, "choice(%lld, %lld, replace=False): %s",
                  (long long)n, (long long)k, ga_last_error_message());
            if (k && distinct >= k)
                CHECK(got && want && memcmp(got, want, sizeof(int64_t) * (size_t)k) == 0,
                      "choice(%lld, %lld, replace=False) from word %d is the host's sequential sample", (long long)n,
                      (long long)k, skip);
            CHECK(ga_random_get_state(g, &got_state) == GA_OK && same_state(&want_state, &got_state),
                  "choice(%lld, %lld, replace=False) takes a block a draw", (long long)n, (long long)k);
            CHECK(got && again && memcmp(got, again, sizeof(int64_t) * (size_t)k) == 0, "the same seed, the same sample");
            uint8_t *seen = calloc((size_t)n, 1);
            bool ok = seen && got;
            for (int64_t i = 0; ok && i < k; i++) ok = got[i] >= 0 && got[i] < n && !seen[got[i]]++;
            CHECK(ok, "choice(%lld, %lld, replace=False): distinct values in range", (long long)n, (long long)k);
            free(seen), free(got), free(again), free(want);
            ga_release(a), ga_release(b);
            ga_generator_release(g), ga_generator_release(h);
        }
    /* k = n: a permutation */
    ga_generator *g = ga_random_default_rng(&seed, 1);
    const int64_t all = 1000;
    ga_array *p = ga_random_choice(g, all, 1, &all, false, NULL);
    int64_t *v = p ? fetch(p) : NULL;
    uint8_t seen[1000] = {0};
    bool ok = v != NULL;
    for (int64_t i = 0; ok && i < all; i++) ok = v[i] >= 0 && v[i] < all && !seen[v[i]]++;
    CHECK(ok, "choice(1000, 1000, replace=False) is a permutation: %s", ga_last_error_message());
    free(v);
    ga_release(p);
    /* the first value of choice(50, 3) over 5000 draws: uniform on 0..49 */
    const int64_t draws = 5000, three = 3;
    int64_t *first = malloc(sizeof(int64_t) * (size_t)draws);
    ok = first != NULL;
    for (int64_t t = 0; ok && t < draws; t++) {
        ga_array *c = ga_random_choice(g, 50, 1, &three, false, NULL);
        int64_t x[3];
        ok = c && download(c, x) && x[0] != x[1] && x[0] != x[2] && x[1] != x[2];
        if (ok) first[t] = x[0];
        ga_release(c);
    }
    CHECK(ok, "5000 choices of 3 of 50: %s", ga_last_error_message());
    check_uniform_values(ok ? first : NULL, draws, 50, "the first value of choice(50, 3, replace=False)");
    free(first);
    ga_generator_release(g);
}

/* ---- multinomial and dirichlet ---------------------------------------------- */

DEVICE_TEST(random_device_multinomial_and_dirichlet)
{
    const uint32_t seed = 4242;
    const int64_t rows = (int64_t)1 << 16, three = 3;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    const double pv[3] = {0.2, 0.3, 0.5}, alpha[3] = {1, 2, 3}, small_alpha[3] = {0.05, 0.05, 0.08};
    ga_array *p = ga_from_host(pv, 1, &three, GA_FLOAT64);
    ga_array *m = ga_random_multinomial(g, 100, p, 1, &rows);
    int64_t *mv = m ? fetch(m) : NULL;
    bool sums = mv != NULL && ga_ndim(m) == 2 && ga_shape(m)[1] == 3;
    int64_t *col = malloc(sizeof(int64_t) * (size_t)rows);
    for (int64_t i = 0; sums && i < rows; i++) sums = mv[3 * i] + mv[3 * i + 1] + mv[3 * i + 2] == 100 && mv[3 * i] >= 0;
    CHECK(sums, "multinomial(100, p, 2**16): rows of 3 counts summing to 100: %s", ga_last_error_message());
    for (int j = 0; sums && col && j < 3; j++) {
        for (int64_t i = 0; i < rows; i++) col[i] = mv[3 * i + j];
        const double bp[2] = {100, pv[j]};
        double stat = 0;
        int df = 0;
        const double pval = ga_chi2_pvalue(col, (size_t)rows, ga_binomial_pmf, bp, &stat, &df);
        CHECK(pval > 1e-6, "multinomial's count %d is binomial(100, %g): chi-square p = %.3g", j, pv[j], pval);
        printf("    multinomial(100, [0.2, 0.3, 0.5]) count %d: chi-square p = %.3g\n", j, pval);
    }
    free(mv);
    ga_release(m);
    for (int t = 0; t < 2; t++) {
        const double *al = t ? small_alpha : alpha;
        ga_array *av = ga_from_host(al, 1, &three, GA_FLOAT64);
        ga_array *d = ga_random_dirichlet(g, av, 1, &rows);
        double *dv = d ? fetch(d) : NULL, *x = malloc(sizeof(double) * (size_t)rows);
        bool ok = dv != NULL && x != NULL;
        for (int64_t i = 0; ok && i < rows; i++) ok = fabs(dv[3 * i] + dv[3 * i + 1] + dv[3 * i + 2] - 1) < 1e-12 && dv[3 * i] >= 0;
        CHECK(ok, "dirichlet(%g, %g, %g): rows summing to 1: %s", al[0], al[1], al[2], ga_last_error_message());
        for (int64_t i = 0; ok && i < rows; i++) x[i] = dv[3 * i];
        const double bp[2] = {al[0], al[1] + al[2]};
        double stat = 0;
        const double pval = ok ? ga_ks_pvalue(x, (size_t)rows, ga_beta_cdf, bp, &stat) : 0;
        CHECK(pval > 1e-6, "dirichlet(%g, %g, %g)'s first value is beta(%g, %g): KS p = %.3g", al[0], al[1], al[2], bp[0], bp[1], pval);
        printf("    dirichlet(%g, %g, %g) first value: KS p = %.3g\n", al[0], al[1], al[2], pval);
        free(dv), free(x);
        ga_release(d), ga_release(av);
    }
    free(col);
    /* errors */
    const double over[3] = {0.6, 0.6, 0}, neg[3] = {0.5, -0.1, 0.6};
    ga_array *po = ga_from_host(over, 1, &three, GA_FLOAT64), *pn = ga_from_host(neg, 1, &three, GA_FLOAT64);
    ga_array *empty = ga_zeros(1, (const int64_t[]){0}, GA_FLOAT64);
    CHECK_ERROR(ga_random_multinomial(g, 5, po, 1, &three) == NULL, GA_ERROR_VALUE, "ga_random_multinomial: sum(pvals[:-1]) > 1.0");
    CHECK_ERROR(ga_random_multinomial(g, 5, pn, 1, &three) == NULL, GA_ERROR_VALUE, "pvals < 0, pvals > 1 or pvals contains NaNs");
    CHECK_ERROR(ga_random_multinomial(g, -1, p, 1, &three) == NULL, GA_ERROR_VALUE, "n < 0");
    CHECK_ERROR(ga_random_multinomial(g, 5, empty, 1, &three) == NULL, GA_ERROR_VALUE,
                "pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
    CHECK_ERROR(ga_random_dirichlet(g, pn, 1, &three) == NULL, GA_ERROR_VALUE, "ga_random_dirichlet: alpha < 0");
    ga_array *one = ga_random_multinomial(g, 7, p, 0, NULL);
    CHECK(one && ga_ndim(one) == 1 && ga_shape(one)[0] == 3, "multinomial without a size: one row: %s", ga_last_error_message());
    ga_release(one), ga_release(po), ga_release(pn), ga_release(empty), ga_release(p);
    ga_generator_release(g);
}

/* ---- multivariate_hypergeometric ------------------------------------------ */

#define MVHG_MAX_ERROR "colors must be a one-dimensional sequence of nonnegative integers not exceeding 9223372036854775807."

TEST(random_multivariate_hypergeometric_errors)
{
    const uint32_t seed = 17;
    const int64_t three = 3, colors[3] = {5, 0, 7}, neg[3] = {5, -1, 7}, over[3] = {INT64_MAX, 1, -1};
    const int64_t wide[2] = {INT64_MAX, 1}, big[2] = {999999999, 1}, count_max[1] = {INT64_MAX / 8};
    const int64_t count_big[2] = {INT64_MAX / 8, 1}, marg_max[1] = {999999999}, dims[GA_MAXDIMS] = {0};
    ga_generator *g = ga_random_default_rng(&seed, 1), *x = ga_random_philox(&seed, 1);
    const ga_mvhg_method M = GA_MVHG_MARGINALS, C = GA_MVHG_COUNT;
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, 3, 4, 1, &three, (ga_mvhg_method)2) == NULL,
                GA_ERROR_VALUE, "ga_random_multivariate_hypergeometric: method must be \"count\" or \"marginals\".");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, neg, 3, -1, 1, &three, (ga_mvhg_method)-1) == NULL,
                GA_ERROR_VALUE, "method must be \"count\" or \"marginals\"."); /* the method first, as NumPy */
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, neg, 3, -1, 1, &three, M) == NULL, GA_ERROR_VALUE,
                "ga_random_multivariate_hypergeometric: nsample must be nonnegative.");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, neg, 3, 2, 1, &three, C) == NULL, GA_ERROR_VALUE, MVHG_MAX_ERROR);
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, over, 3, 2, 1, &three, C) == NULL, GA_ERROR_VALUE,
                MVHG_MAX_ERROR); /* a negative color before the overflowing sum */
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, wide, 2, 2, 1, &three, C) == NULL, GA_ERROR_VALUE,
                "sum(colors) must not exceed the maximum value of a 64 bit signed integer (9223372036854775807)");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, big, 2, 2, 1, &three, M) == NULL, GA_ERROR_VALUE,
                "When method is \"marginals\", sum(colors) must be less than 1000000000.");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, count_big, 2, 2, 1, &three, C) == NULL, GA_ERROR_VALUE,
                "When method is 'count', sum(colors) must not exceed 1152921504606846975");
    /* the largest sums pass: the next check speaks */
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, marg_max, 1, 1000000000, 1, &three, M) == NULL, GA_ERROR_VALUE,
                "ga_random_multivariate_hypergeometric: nsample > sum(colors)");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, count_max, 1, INT64_MAX / 8 + 1, 1, &three, C) == NULL,
                GA_ERROR_VALUE, "nsample > sum(colors)");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, big, 2, 1000000001, 1, &three, C) == NULL, GA_ERROR_VALUE,
                "nsample > sum(colors)");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, 3, 13, 0, NULL, M) == NULL, GA_ERROR_VALUE,
                "nsample > sum(colors)");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, NULL, 0, 1, 0, NULL, M) == NULL, GA_ERROR_VALUE,
                "nsample > sum(colors)"); /* no colors: a sum of 0 */
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, NULL, 3, 1, 0, NULL, M) == NULL, GA_ERROR_NULL_INPUT,
                "ga_random_multivariate_hypergeometric: colors is NULL");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, -1, 1, 0, NULL, M) == NULL, GA_ERROR_VALUE,
                "ncolors must be non-negative");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, 3, 4, GA_MAXDIMS, dims, C) == NULL, GA_ERROR_VALUE,
                "size must have 0 to");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, 3, 4, -1, dims, C) == NULL, GA_ERROR_VALUE,
                "size must have 0 to");
    CHECK_ERROR(ga_random_multivariate_hypergeometric(x, colors, 3, 4, 1, &three, M) == NULL, GA_ERROR_NOT_IMPLEMENTED,
                "draws of the Philox (NumPy) bit generator on the device are not implemented yet");
    ga_generator_release(g), ga_generator_release(x);
}

/* One method's rows of `colors`: shape, row sums, bounds; each count's
   chi-square against hypergeometric(colors[j], total - colors[j], nsample)
   and its mean and variance against the exact ones (6 standard errors);
   the first and last counts together against hypergeometric(c0 + ck,
   ...), whose variance holds their exact covariance. */
static void check_mvhg_rows(ga_mvhg_method method, const int64_t *colors, int64_t k, int64_t nsample, uint32_t seed)
{
    const int64_t rows = 100000;
    const char *name = method == GA_MVHG_COUNT ? "count" : "marginals";
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array *a = ga_random_multivariate_hypergeometric(g, colors, k, nsample, 1, &rows, method);
    int64_t *v = a ? fetch(a) : NULL, *col = malloc(sizeof(int64_t) * (size_t)rows), total = 0;
    for (int64_t j = 0; j < k; j++) total += colors[j];
    bool ok = v && col && ga_ndim(a) == 2 && ga_shape(a)[0] == rows && ga_shape(a)[1] == k;
    CHECK(ok, "multivariate_hypergeometric(%s, %lld): shape (%lld, %lld): %s", name, (long long)nsample, (long long)rows,
          (long long)k, ga_last_error_message());
    CHECK(state_moved_by(&before, g, 4 * (uint64_t)rows), "%s: the generator moves on by a block a row", name);
    for (int64_t i = 0; ok && i < rows; i++) {
        int64_t sum = 0;
        for (int64_t j = 0; j < k; j++) sum += v[i * k + j], ok = ok && v[i * k + j] >= 0 && v[i * k + j] <= colors[j];
        ok = ok && sum == nsample;
        CHECK(ok, "%s(%lld) row %lld: counts within the colors summing to nsample", name, (long long)nsample, (long long)i);
    }
    for (int64_t j = 0; ok && j <= k; j++) { /* j = k: the first and last together */
        const int64_t first = j < k ? j : 0, last = j < k ? j : k - 1;
        for (int64_t i = 0; i < rows; i++) col[i] = v[i * k + first] + (first != last ? v[i * k + last] : 0);
        const double good = (double)(colors[first] + (first != last ? colors[last] : 0));
        const double hp[3] = {good, (double)total - good, (double)nsample};
        const double mu = ga_hypergeometric_mean(hp), var = ga_hypergeometric_var(hp);
        const ga_moments m = ga_moments_of_i64(col, (size_t)rows);
        if (var == 0) {
            CHECK(m.mean == mu && m.var == 0, "%s(%lld) count %lld: always %g", name, (long long)nsample, (long long)j, mu);
            continue;
        }
        const double mz = ga_mean_z(&m, mu, var), vz = ga_var_z(&m, var, NAN);
        double stat = 0;
        int df = 0;
        const double pval = ga_chi2_pvalue(col, (size_t)rows, ga_hypergeometric_pmf, hp, &stat, &df);
        CHECK(pval > 1e-6 && fabs(mz) < 6 && fabs(vz) < 6,
              "%s(%lld) count %lld%s: chi-square p = %.3g, mean z = %.2f, var z = %.2f", name, (long long)nsample,
              (long long)first, first != last ? "+last" : "", pval, mz, vz);
        printf("    multivariate_hypergeometric(%s, %lld) count %lld%s: chi-square p = %.3g, mean z = %.2f, var z = %.2f\n",
               name, (long long)nsample, (long long)first, first != last ? "+last" : "", pval, mz, vz);
    }
    free(v), free(col);
    ga_release(a);
    ga_generator_release(g);
}

DEVICE_TEST(random_device_multivariate_hypergeometric)
{
    const int64_t colors[5] = {20, 30, 0, 50, 100}, large[3] = {1000000, 2000000, 500};
    for (int m = 0; m < 2; m++) {
        const ga_mvhg_method method = m ? GA_MVHG_COUNT : GA_MVHG_MARGINALS;
        check_mvhg_rows(method, colors, 5, 7, 500 + m);   /* item by item (marginals: hypergeometric's count) */
        check_mvhg_rows(method, colors, 5, 60, 510 + m);  /* HRUA */
        check_mvhg_rows(method, colors, 5, 170, 520 + m); /* the complement */
        check_mvhg_rows(method, large, 3, m ? 300 : 1500000, 530 + m);
    }
}

DEVICE_TEST(random_device_multivariate_hypergeometric_edges)
{
    const uint32_t seed = 606, other = 607;
    const int64_t colors[4] = {3, 0, 9, 4}, single[1] = {9}, rows = 1000, shape2[2] = {10, 100}, empty = 0;
    for (int m = 0; m < 2; m++) {
        const ga_mvhg_method method = m ? GA_MVHG_COUNT : GA_MVHG_MARGINALS;
        const char *name = m ? "count" : "marginals";
        ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
        ga_generator *o = ga_random_default_rng(&other, 1);
        /* the same seed, the same rows; another seed, others */
        ga_array *a = ga_random_multivariate_hypergeometric(g, colors, 4, 8, 2, shape2, method);
        ga_array *b = ga_random_multivariate_hypergeometric(h, colors, 4, 8, 2, shape2, method);
        ga_array *c = ga_random_multivariate_hypergeometric(o, colors, 4, 8, 2, shape2, method);
        int64_t *av = a ? fetch(a) : NULL, *bv = b ? fetch(b) : NULL, *cv = c ? fetch(c) : NULL;
        CHECK(av && bv && cv && ga_ndim(a) == 3 && ga_shape(a)[2] == 4 && memcmp(av, bv, 4000 * 8) == 0 &&
                  memcmp(av, cv, 4000 * 8) != 0,
              "%s: the same seed gives the same rows, another seed others: %s", name, ga_last_error_message());
        free(av), free(bv), free(cv);
        ga_release(a), ga_release(b), ga_release(c);
        /* nsample 0: zeros; nsample = sum(colors): colors; one color: nsample */
        const int64_t cases[3] = {0, 16, 5};
        for (int t = 0; t < 3; t++) {
            const int64_t *cl = t == 2 ? single : colors, k = t == 2 ? 1 : 4;
            ga_array *r = ga_random_multivariate_hypergeometric(g, cl, k, cases[t], 1, &rows, method);
            int64_t *rv = r ? fetch(r) : NULL;
            bool ok = rv != NULL;
            for (int64_t i = 0; ok && i < rows * k; i++) ok = rv[i] == (t == 0 ? 0 : t == 1 ? cl[i % k] : 5);
            CHECK(ok, "%s: nsample %lld of %lld colors: every row %s: %s", name, (long long)cases[t], (long long)k,
                  t == 0 ? "zeros" : t == 1 ? "the colors" : "[5]", ga_last_error_message());
            free(rv);
            ga_release(r);
        }
        /* no size: one row of k; size (): the same; an empty size; no colors */
        ga_array *one = ga_random_multivariate_hypergeometric(g, colors, 4, 8, 0, NULL, method);
        ga_array *unit = ga_random_multivariate_hypergeometric(g, colors, 4, 8, 0, &rows, method);
        ga_array *none = ga_random_multivariate_hypergeometric(g, colors, 4, 8, 1, &empty, method);
        ga_array *blank = ga_random_multivariate_hypergeometric(g, NULL, 0, 0, 1, &rows, method);
        int64_t ov[4] = {-1, -1, -1, -1};
        CHECK(one && ga_ndim(one) == 1 && ga_shape(one)[0] == 4 && download(one, ov) && ov[0] + ov[1] + ov[2] + ov[3] == 8 &&
                  ov[1] == 0,
              "%s without a size: one row of 4 summing to 8: %s", name, ga_last_error_message());
        CHECK(unit && ga_ndim(unit) == 1 && ga_shape(unit)[0] == 4, "%s with size (): shape (4,): %s", name,
              ga_last_error_message());
        CHECK(none && ga_ndim(none) == 2 && ga_shape(none)[0] == 0 && ga_shape(none)[1] == 4 && ga_size(none) == 0,
              "%s with size (0,): shape (0, 4): %s", name, ga_last_error_message());
        CHECK(blank && ga_ndim(blank) == 2 && ga_shape(blank)[0] == rows && ga_shape(blank)[1] == 0,
              "%s with no colors: shape (1000, 0): %s", name, ga_last_error_message());
        const int64_t negative = -2;
        CHECK_ERROR(ga_random_multivariate_hypergeometric(g, colors, 4, 8, 1, &negative, method) == NULL, GA_ERROR_VALUE,
                    "negative dimensions are not allowed");
        ga_release(one), ga_release(unit), ga_release(none), ga_release(blank);
        ga_generator_release(g), ga_generator_release(h), ga_generator_release(o);
    }
}

/* ---- multinomial of n-d pvals and array n --------------------------------- */

/* An array's header with no data (device 0, up to 3 dimensions): enough
   for the argument and shape checks, which come before the device. */
static ga_array rows_shell(ga_dtype dt, int ndim, int64_t d0, int64_t d1, int64_t d2)
{
    ga_array a;
    memset(&a, 0, sizeof a);
    a.refcount = 1, a.dtype = dt, a.ndim = ndim, a.shape[0] = d0, a.shape[1] = d1, a.shape[2] = d2;
    a.size = 1;
    for (int d = 0; d < ndim; d++) a.size *= a.shape[d];
    return a;
}

/* Every argument and shape error NumPy 2.4's multinomial and dirichlet
   give before reading a value (each message as NumPy's, checked by hand
   against numpy 2.4.6), in NumPy's order; a failed call takes no words. */
TEST(random_multinomial_nd_errors_before_the_device)
{
    const uint32_t seed = 31;
    ga_generator *g = ga_random_default_rng(&seed, 1), *np = ga_random_philox(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array p34 = rows_shell(GA_FLOAT64, 2, 3, 4, 0), p4 = rows_shell(GA_FLOAT64, 1, 4, 0, 0);
    ga_array p0 = rows_shell(GA_FLOAT64, 0, 0, 0, 0), p20 = rows_shell(GA_FLOAT64, 2, 2, 0, 0);
    ga_array pc = rows_shell(GA_COMPLEX128, 2, 2, 2, 0), pc0 = rows_shell(GA_COMPLEX128, 0, 0, 0, 0);
    ga_array p32 = rows_shell(GA_FLOAT32, 2, 3, 2, 0), n21 = rows_shell(GA_INT64, 2, 2, 1, 0);
    ga_array n2 = rows_shell(GA_INT32, 1, 2, 0, 0), n1 = rows_shell(GA_UINT8, 1, 1, 0, 0);
    ga_array nf = rows_shell(GA_FLOAT64, 1, 2, 0, 0), nf0 = rows_shell(GA_FLOAT64, 0, 0, 0, 0);
    ga_array nu = rows_shell(GA_UINT64, 1, 2, 0, 0), nb = rows_shell(GA_BOOL, 1, 3, 0, 0);
    const int64_t s53[2] = {5, 3}, s51[2] = {5, 1}, s2[1] = {2}, s7[1] = {7}, s423[3] = {4, 2, 3}, s23[2] = {2, 3};
    const int64_t neg[2] = {5, -3}, big[GA_MAXDIMS] = {1};
    const ga_operand ten = ga_operand_scalar(ga_int(10));
#define MN ga_random_multinomial_array
    /* n: NumPy's int64 cast (safe for arrays, int() for scalars) comes first */
    CHECK_ERROR(MN(g, ga_operand_array(&nf), &p0, 0, NULL) == NULL, GA_ERROR_TYPE,
                "ga_random_multinomial_array: Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
    CHECK_ERROR(MN(g, ga_operand_array(&nf0), &p34, 0, NULL) == NULL, GA_ERROR_TYPE,
                "Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'");
    CHECK_ERROR(MN(g, ga_operand_array(&nu), &p34, 0, NULL) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
    CHECK_ERROR(MN(g, ga_operand_scalar(ga_complex(1, 1)), &p34, 0, NULL) == NULL, GA_ERROR_TYPE,
                "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
    CHECK_ERROR(MN(g, ga_operand_scalar(ga_float(NAN)), &p34, 0, NULL) == NULL, GA_ERROR_VALUE,
                "cannot convert float NaN to integer");
    CHECK_ERROR(MN(g, ga_operand_scalar(ga_float(-INFINITY)), &p34, 0, NULL) == NULL, GA_ERROR_OVERFLOW,
                "cannot convert float infinity to integer");
    CHECK_ERROR(MN(g, ga_operand_scalar(ga_float(9.3e18)), &p34, 0, NULL) == NULL, GA_ERROR_OVERFLOW,
                "Python int too large to convert to C long");
    CHECK_ERROR(MN(g, ga_operand_scalar(ga_uint(UINT64_MAX)), &p34, 0, NULL) == NULL, GA_ERROR_OVERFLOW,
                "Python int too large to convert to C long");
    CHECK_ERROR(MN(g, ga_operand_array(NULL), &p34, 0, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_random_multinomial_array: n is NULL");
    /* pvals: NULL, its float64 cast, then its dimensions */
    CHECK_ERROR(MN(g, ten, NULL, 0, NULL) == NULL, GA_ERROR_NULL_INPUT, "pvals is NULL");
    CHECK_ERROR(MN(g, ten, &pc, 0, NULL) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule 'safe'");
    CHECK_ERROR(MN(g, ten, &pc0, 0, NULL) == NULL, GA_ERROR_TYPE,
                "Cannot cast scalar from dtype('complex128') to dtype('float64') according to the rule 'safe'");
    CHECK_ERROR(MN(g, ten, &p0, 0, NULL) == NULL, GA_ERROR_VALUE,
                "pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p20, 1, s2) == NULL, GA_ERROR_VALUE,
                "ga_random_multinomial: pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
    /* the vector path's shapes: np.broadcast(n, pvals[..., 0], size) and the size */
    CHECK_ERROR(ga_random_multinomial(g, 10, &p34, 2, s51) == NULL, GA_ERROR_VALUE,
                "ga_random_multinomial: Output size (5, 1) is not compatible with broadcast dimensions of inputs (5, 3).");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p34, 1, s2) == NULL, GA_ERROR_SHAPE,
                "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 1 with shape (3,) "
                "and arg 2 with shape (2,).");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p34, 0, s2) == NULL, GA_ERROR_VALUE,
                "Output size () is not compatible with broadcast dimensions of inputs (3,).");
    CHECK_ERROR(MN(g, ga_operand_array(&n2), &p34, 0, NULL) == NULL, GA_ERROR_SHAPE,
                "Mismatch is between arg 0 with shape (2,) and arg 1 with shape (3,).");
    CHECK_ERROR(MN(g, ga_operand_array(&n1), &p32, 1, s7) == NULL, GA_ERROR_SHAPE,
                "Mismatch is between arg 1 with shape (3,) and arg 2 with shape (7,).");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p34, 2, neg) == NULL, GA_ERROR_VALUE, "negative dimensions are not allowed");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p4, GA_MAXDIMS, big) == NULL, GA_ERROR_VALUE, "size must have 0 to 31 dimensions");
    CHECK_ERROR(ga_random_multinomial(g, 10, &p4, -1, s2) == NULL, GA_ERROR_VALUE, "size must have 0 to 31 dimensions");
    /* shapes that pass meet the generator's check: NumPy's Philox draws on the host only */
    CHECK_ERROR(ga_random_multinomial(np, 10, &p34, 2, s53) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy) bit generator");
    CHECK_ERROR(MN(np, ga_operand_array(&n21), &p34, 0, NULL) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    CHECK_ERROR(MN(np, ga_operand_array(&n21), &p34, 3, s423) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    CHECK_ERROR(MN(np, ga_operand_array(&n21), &p34, 2, s23) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    CHECK_ERROR(MN(np, ga_operand_array(&nb), &p4, 2, s53) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    CHECK_ERROR(MN(np, ga_operand_array(&n2), &p4, 0, NULL) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    CHECK_ERROR(MN(np, ga_operand_scalar(ga_float(2.9)), &p4, 1, s7) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy)");
    n2.device = 1;
    CHECK_ERROR(MN(g, ga_operand_array(&n2), &p4, 0, NULL) == NULL, GA_ERROR_DEVICE, "n is on device 1, pvals on device 0");
#undef MN
    /* dirichlet: NumPy 2's alpha is 1-d (len(alpha), then PyArray_FROMANY's 1-d rule, then its cast) */
    ga_array a0 = rows_shell(GA_FLOAT64, 0, 0, 0, 0), a2 = rows_shell(GA_FLOAT64, 2, 2, 3, 0);
    ga_array ac = rows_shell(GA_COMPLEX64, 1, 3, 0, 0), a3 = rows_shell(GA_FLOAT64, 1, 3, 0, 0);
    CHECK_ERROR(ga_random_dirichlet(g, NULL, 0, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_random_dirichlet: alpha is NULL");
    CHECK_ERROR(ga_random_dirichlet(g, &a0, 0, NULL) == NULL, GA_ERROR_TYPE, "ga_random_dirichlet: len() of unsized object");
    CHECK_ERROR(ga_random_dirichlet(g, &a2, 1, s2) == NULL, GA_ERROR_VALUE, "ga_random_dirichlet: object too deep for desired array");
    CHECK_ERROR(ga_random_dirichlet(g, &ac, 1, s2) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('complex64') to dtype('float64') according to the rule 'safe'");
    CHECK_ERROR(ga_random_dirichlet(g, &a3, 2, neg) == NULL, GA_ERROR_VALUE, "negative dimensions are not allowed");
    CHECK_ERROR(ga_random_dirichlet(g, &a3, GA_MAXDIMS, big) == NULL, GA_ERROR_VALUE, "size must have 0 to 31 dimensions");
    CHECK_ERROR(ga_random_dirichlet(np, &a3, 1, s2) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy) bit generator");
    CHECK(state_moved_by(&before, g, 0), "failed multinomial and dirichlet calls take no words");
    ga_generator_release(g), ga_generator_release(np);
}

/* a (rows of k int64 counts): row i within its pvals row pv[i % np] (a
   category of probability 0 never drawn, NumPy's last one excepted) and
   summing to ns[i / n_every]. */
static bool multinomial_rows_ok(const int64_t *a, int64_t rows, int64_t k, const double *pv, int64_t np, const int64_t *ns,
                                int64_t n_every)
{
    for (int64_t i = 0; i < rows; i++) {
        const double *p = pv + (i % np) * k;
        int64_t sum = 0;
        for (int64_t j = 0; j < k; j++) {
            if (a[i * k + j] < 0 || (p[j] == 0 && j + 1 < k && a[i * k + j] != 0)) return false;
            sum += a[i * k + j];
        }
        if (sum != ns[i / n_every]) return false;
    }
    return true;
}

/* pvals (3, 4) with size (5, 3) and with no size: shape (5, 3, 4) and (3,
   4), row i of the last axis drawing from pvals row i (their zeros in
   other places), summing to n; the generator moves on by a block a row. */
DEVICE_TEST(random_device_multinomial_nd_pvals)
{
    const uint32_t seed = 71;
    const int64_t p34[2] = {3, 4}, s53[2] = {5, 3}, n = 25;
    const double pv[12] = {0.5, 0.5, 0, 0, 0, 0.25, 0.75, 0, 0, 0, 0.3, 0.7};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *p = ga_from_host(pv, 2, p34, GA_FLOAT64);
    for (int t = 0; t < 2; t++) {
        ga_random_state before;
        CHECK_OK(ga_random_get_state(g, &before));
        ga_array *a = t ? ga_random_multinomial(g, n, p, 0, NULL) : ga_random_multinomial(g, n, p, 2, s53);
        const int64_t rows = t ? 3 : 15;
        int64_t *v = a ? fetch(a) : NULL;
        const bool shaped = a && (t ? ga_ndim(a) == 2 && ga_shape(a)[0] == 3 && ga_shape(a)[1] == 4
                                    : ga_ndim(a) == 3 && ga_shape(a)[0] == 5 && ga_shape(a)[1] == 3 && ga_shape(a)[2] == 4);
        CHECK(shaped && v, "multinomial(25, pvals (3, 4), size %s): shape %s: %s", t ? "None" : "(5, 3)",
              t ? "(3, 4)" : "(5, 3, 4)", ga_last_error_message());
        CHECK(shaped && v && multinomial_rows_ok(v, rows, 4, pv, 3, &n, rows), "%s: each row from its pvals row, summing to 25",
              t ? "no size" : "size (5, 3)");
        CHECK(state_moved_by(&before, g, 4 * (uint64_t)rows), "a block a row (%lld rows)", (long long)rows);
        free(v);
        ga_release(a);
    }
    /* the same through the array API with a scalar and a 0-d n */
    const int64_t n0 = 25;
    ga_array *nz = ga_from_host(&n0, 0, NULL, GA_INT64);
    ga_array *b = ga_random_multinomial_array(g, ga_operand_array(nz), p, 2, s53);
    int64_t *bv = b ? fetch(b) : NULL;
    CHECK(bv && ga_ndim(b) == 3 && multinomial_rows_ok(bv, 15, 4, pv, 3, &n, 15), "a 0-d n: rows summing to 25: %s",
          ga_last_error_message());
    free(bv);
    ga_release(b), ga_release(nz), ga_release(p);
    ga_generator_release(g);
}

/* n (2, 1) with pvals (3, 4): shape (2, 3, 4), row (i, j) summing to n[i]
   from pvals row j; with size (4, 2, 3): (4, 2, 3, 4). */
DEVICE_TEST(random_device_multinomial_array_n)
{
    const uint32_t seed = 72;
    const int64_t n21[2] = {2, 1}, p34[2] = {3, 4}, s423[3] = {4, 2, 3}, nv[2] = {10, 1000}, nrep[8] = {10, 1000, 10, 1000, 10, 1000, 10, 1000};
    const double pv[12] = {0.1, 0.2, 0.3, 0.4, 0, 0.5, 0, 0.5, 1, 0, 0, 0};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *n = ga_from_host(nv, 2, n21, GA_INT64), *p = ga_from_host(pv, 2, p34, GA_FLOAT64);
    ga_array *n16 = n ? ga_astype(n, GA_INT16) : NULL; /* (int16: cast safely) */
    ga_array *a = ga_random_multinomial_array(g, ga_operand_array(n), p, 0, NULL);
    int64_t *av = a ? fetch(a) : NULL;
    CHECK(av && ga_ndim(a) == 3 && ga_shape(a)[0] == 2 && ga_shape(a)[1] == 3 && ga_shape(a)[2] == 4 &&
              multinomial_rows_ok(av, 6, 4, pv, 3, nv, 3),
          "n (2, 1), pvals (3, 4): shape (2, 3, 4), rows summing to n[i]: %s", ga_last_error_message());
    CHECK(av && av[8] == 10 && av[20] == 1000, "pvals row [1, 0, 0, 0]: all n in the first category");
    ga_array *b = ga_random_multinomial_array(g, ga_operand_array(n), p, 3, s423);
    int64_t *bv = b ? fetch(b) : NULL;
    CHECK(bv && ga_ndim(b) == 4 && ga_shape(b)[0] == 4 && ga_shape(b)[3] == 4 && multinomial_rows_ok(bv, 24, 4, pv, 3, nrep, 3),
          "n (2, 1), pvals (3, 4), size (4, 2, 3): shape (4, 2, 3, 4): %s", ga_last_error_message());
    ga_array *c = n16 ? ga_random_multinomial_array(g, ga_operand_array(n16), p, 0, NULL) : NULL;
    int64_t *cv = c ? fetch(c) : NULL;
    CHECK(cv && multinomial_rows_ok(cv, 6, 4, pv, 3, nv, 3), "an int16 n: rows summing to n[i]: %s", ga_last_error_message());
    /* an n array with a 1-d pvals: shape n.shape + (k,) */
    const int64_t four = 4;
    ga_array *p4 = ga_from_host(pv, 1, &four, GA_FLOAT64);
    ga_array *d = ga_random_multinomial_array(g, ga_operand_array(n), p4, 0, NULL);
    int64_t *dv = d ? fetch(d) : NULL;
    CHECK(dv && ga_ndim(d) == 3 && ga_shape(d)[0] == 2 && ga_shape(d)[1] == 1 && ga_shape(d)[2] == 4 &&
              multinomial_rows_ok(dv, 2, 4, pv, 1, nv, 1),
          "n (2, 1) with pvals (4,): shape (2, 1, 4), rows summing to n[i]: %s", ga_last_error_message());
    /* a float scalar n is NumPy's int(n) */
    ga_array *e = ga_random_multinomial_array(g, ga_operand_scalar(ga_float(7.9)), p, 0, NULL);
    int64_t *ev = e ? fetch(e) : NULL;
    const int64_t seven = 7;
    CHECK(ev && multinomial_rows_ok(ev, 3, 4, pv, 3, &seven, 3), "n = 7.9: rows summing to 7: %s", ga_last_error_message());
    free(av), free(bv), free(cv), free(dv), free(ev);
    ga_release(a), ga_release(b), ga_release(c), ga_release(d), ga_release(e);
    ga_release(n), ga_release(n16), ga_release(p), ga_release(p4);
    ga_generator_release(g);
}

/* 20000 rows of n (20000, 1), n_i = 5 + i % 50, with pvals (2, 4): for each
   pvals row and category j, sum_i X_ij within 5 standard errors of sum_i
   n_i p_j (variance sum_i n_i p_j (1 - p_j)). */
DEVICE_TEST(random_device_multinomial_nd_means)
{
    const uint32_t seed = 73;
    enum { R = 20000, K = 4 };
    const int64_t nshape[2] = {R, 1}, p24[2] = {2, K};
    const double pv[2 * K] = {0.1, 0.2, 0.3, 0.4, 0.05, 0.6, 0.35, 0};
    int64_t *nv = malloc(sizeof(int64_t) * R), ntotal = 0;
    for (int64_t i = 0; i < R; i++) nv[i] = 5 + i % 50, ntotal += nv[i];
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *n = ga_from_host(nv, 2, nshape, GA_INT64), *p = ga_from_host(pv, 2, p24, GA_FLOAT64);
    ga_array *a = ga_random_multinomial_array(g, ga_operand_array(n), p, 0, NULL);
    int64_t *v = a ? fetch(a) : NULL;
    const bool ok = v && ga_ndim(a) == 3 && ga_shape(a)[0] == R && ga_shape(a)[1] == 2 && ga_shape(a)[2] == K;
    CHECK(ok, "n (20000, 1), pvals (2, 4): shape (20000, 2, 4): %s", ga_last_error_message());
    for (int r = 0; ok && r < 2; r++)
        for (int j = 0; j < K; j++) {
            double sum = 0;
            bool sums = true;
            for (int64_t i = 0; i < R; i++) {
                const int64_t *row = v + (i * 2 + r) * K;
                sum += (double)row[j];
                sums = sums && row[0] + row[1] + row[2] + row[3] == nv[i];
            }
            const double want = (double)ntotal * pv[r * K + j], se = sqrt((double)ntotal * pv[r * K + j] * (1 - pv[r * K + j]));
            CHECK(sums, "pvals row %d: every row sums to its n", r);
            CHECK(se > 0 ? fabs(sum - want) < 5 * se : sum == want, "pvals row %d category %d: %.0f counts, want %.0f (standard error %.1f)",
                  r, j, sum, want, se);
            printf("    multinomial(n (20000, 1), pvals row %d) category %d: z = %.2f\n", r, j, se > 0 ? (sum - want) / se : 0.0);
        }
    free(v), free(nv);
    ga_release(a), ga_release(n), ga_release(p);
    ga_generator_release(g);
}

/* A 1-d pvals with a scalar n draws as before (ga_random_multinomial of a
   fresh generator of the same seed); the same pvals tiled to a row each,
   and an n array of that n, draw the same values (each row its stream);
   another seed draws others. */
DEVICE_TEST(random_device_multinomial_1d_values_kept)
{
    const uint32_t seed = 74, other = 75;
    enum { R = 1000, K = 5 };
    const int64_t rows = R, k = K, rk[2] = {R, K};
    const double pv[K] = {0.1, 0.15, 0.2, 0.25, 0.3};
    double *tiled = malloc(sizeof(double) * R * K);
    int64_t *ns = malloc(sizeof(int64_t) * R);
    for (int64_t i = 0; i < R * K; i++) tiled[i] = pv[i % K];
    for (int64_t i = 0; i < R; i++) ns[i] = 40;
    ga_array *p = ga_from_host(pv, 1, &k, GA_FLOAT64), *pt = ga_from_host(tiled, 2, rk, GA_FLOAT64);
    ga_array *n = ga_from_host(ns, 1, &rows, GA_INT64);
    ga_array *r[5] = {NULL};
    for (int t = 0; t < 5; t++) {
        const uint32_t s = t == 4 ? other : seed;
        ga_generator *g = ga_random_default_rng(&s, 1);
        r[t] = t == 0 ? ga_random_multinomial(g, 40, p, 1, &rows)
             : t == 1 ? ga_random_multinomial_array(g, ga_operand_scalar(ga_int(40)), p, 1, &rows)
             : t == 2 ? ga_random_multinomial(g, 40, pt, 0, NULL)
             : t == 3 ? ga_random_multinomial_array(g, ga_operand_array(n), p, 0, NULL)
                      : ga_random_multinomial(g, 40, p, 1, &rows);
        ga_generator_release(g);
    }
    int64_t *v[5] = {NULL};
    for (int t = 0; t < 5; t++) v[t] = r[t] && ga_size(r[t]) == R * K ? fetch(r[t]) : NULL;
    const size_t bytes = sizeof(int64_t) * R * K;
    CHECK(v[0] && multinomial_rows_ok(v[0], R, K, pv, 1, ns, 1), "multinomial(40, pvals (5,), 1000): rows summing to 40: %s",
          ga_last_error_message());
    CHECK(v[0] && v[1] && memcmp(v[0], v[1], bytes) == 0, "the array API with a scalar n: the same values");
    CHECK(v[0] && v[2] && memcmp(v[0], v[2], bytes) == 0, "pvals tiled to (1000, 5): the same values, row by row");
    CHECK(v[0] && v[3] && memcmp(v[0], v[3], bytes) == 0, "an n array of 40s: the same values, row by row");
    CHECK(v[0] && v[4] && memcmp(v[0], v[4], bytes) != 0, "another seed: other values");
    for (int t = 0; t < 5; t++) free(v[t]), ga_release(r[t]);
    free(tiled), free(ns);
    ga_release(p), ga_release(pt), ga_release(n);
}

/* Empty sizes and parameters: no words taken, NumPy's shapes; the errors of
   values, read on the host, in NumPy's order. */
DEVICE_TEST(random_device_multinomial_nd_edges)
{
    const uint32_t seed = 76;
    const int64_t p34[2] = {3, 4}, s03[2] = {0, 3}, p04[2] = {0, 4}, zero = 0, two = 2, p23[2] = {2, 3}, k3 = 3;
    const double pv[12] = {0.25, 0.25, 0.25, 0.25, 0.5, 0.5, 0, 0, 0, 0, 0, 1};
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array *p = ga_from_host(pv, 2, p34, GA_FLOAT64), *pe = ga_zeros(2, p04, GA_FLOAT64);
    ga_array *ne = ga_zeros(1, &zero, GA_INT64), *p1 = p ? ga_reshape(p, 1, (const int64_t[]){12}) : NULL;
    const int64_t four = 4;
    ga_array *p4 = ga_from_host(pv, 1, &four, GA_FLOAT64);
    ga_array *a = ga_random_multinomial(g, 5, p, 2, s03);
    ga_array *b = ga_random_multinomial(g, 5, pe, 0, NULL);
    ga_array *c = ga_random_multinomial_array(g, ga_operand_array(ne), p4, 0, NULL);
    ga_array *d = ga_random_multinomial(g, 5, p4, 1, &zero);
    ga_array *e = ga_random_multinomial_array(g, ga_operand_array(ne), p, 0, NULL); /* (0,) against (3,) */
    CHECK(a && ga_ndim(a) == 3 && ga_shape(a)[0] == 0 && ga_shape(a)[1] == 3 && ga_shape(a)[2] == 4,
          "pvals (3, 4), size (0, 3): shape (0, 3, 4): %s", ga_last_error_message());
    CHECK(b && ga_ndim(b) == 2 && ga_shape(b)[0] == 0 && ga_shape(b)[1] == 4, "pvals (0, 4): shape (0, 4): %s", ga_last_error_message());
    CHECK(c && ga_ndim(c) == 2 && ga_shape(c)[0] == 0 && ga_shape(c)[1] == 4, "n (0,), pvals (4,): shape (0, 4): %s",
          ga_last_error_message());
    CHECK(d && ga_ndim(d) == 2 && ga_shape(d)[0] == 0 && ga_shape(d)[1] == 4, "size (0,): shape (0, 4): %s", ga_last_error_message());
    CHECK(e == NULL && ga_last_error() == GA_ERROR_SHAPE, "n (0,) with pvals (3, 4): a shape mismatch");
    ga_clear_error();
    CHECK(state_moved_by(&before, g, 0), "empty draws take no words");
    ga_release(a), ga_release(b), ga_release(c), ga_release(d), ga_release(e);
    /* values: bounds over all of pvals first, then each row's sum, then n */
    const double over[6] = {0.5, 0.6, 0, 0.2, 0.3, 0.5}, nan_[6] = {0.2, 0.3, 0.5, 0.2, NAN, 0.5}, f32[3] = {0.7, 0.30001, 0};
    const double fine[6] = {0.2, 0.3, 0.5, 0.5, 0.5, 0};
    const int64_t nneg[2] = {3, -1};
    ga_array *po = ga_from_host(over, 2, p23, GA_FLOAT64), *pn = ga_from_host(nan_, 2, p23, GA_FLOAT64);
    ga_array *pf = ga_from_host(f32, 1, &k3, GA_FLOAT64), *pf32 = pf ? ga_astype(pf, GA_FLOAT32) : NULL;
    ga_array *pf2 = pf32 ? ga_reshape(pf32, 2, (const int64_t[]){1, 3}) : NULL, *nn = ga_from_host(nneg, 1, &two, GA_INT64);
    ga_array *pok = ga_from_host(fine, 2, p23, GA_FLOAT64);
    CHECK_ERROR(ga_random_multinomial(g, 5, po, 0, NULL) == NULL, GA_ERROR_VALUE, "ga_random_multinomial: sum(pvals[...,:-1]) > 1.0");
    CHECK_ERROR(ga_random_multinomial(g, 5, pn, 0, NULL) == NULL, GA_ERROR_VALUE, "pvals < 0, pvals > 1 or pvals contains NaNs");
    CHECK_ERROR(ga_random_multinomial_array(g, ga_operand_array(nn), pn, 0, NULL) == NULL, GA_ERROR_VALUE,
                "pvals < 0, pvals > 1 or pvals contains NaNs"); /* pvals before n */
    CHECK_ERROR(ga_random_multinomial_array(g, ga_operand_array(nn), po, 0, NULL) == NULL, GA_ERROR_VALUE, "sum(pvals[...,:-1]) > 1.0");
    CHECK_ERROR(ga_random_multinomial_array(g, ga_operand_array(nn), p1, 0, NULL) == NULL, GA_ERROR_VALUE, "sum(pvals[:-1]) > 1.0");
    CHECK_ERROR(ga_random_multinomial_array(g, ga_operand_array(nn), pok, 0, NULL) == NULL, GA_ERROR_VALUE,
                "ga_random_multinomial_array: n < 0");
    CHECK_ERROR(ga_random_multinomial(g, -1, p, 0, NULL) == NULL, GA_ERROR_VALUE, "ga_random_multinomial: n < 0");
    CHECK_ERROR(ga_random_multinomial_array(g, ga_operand_scalar(ga_float(-1.5)), p, 0, NULL) == NULL, GA_ERROR_VALUE, "n < 0");
    CHECK_ERROR(ga_random_multinomial(g, 5, pf32, 0, NULL) == NULL, GA_ERROR_VALUE,
                "sum(pvals[:-1].astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating point prior to checking "
                "the sum. Precision changes when casting may cause problems even if the sum of the original pvals is valid.");
    CHECK_ERROR(ga_random_multinomial(g, 5, pf2, 0, NULL) == NULL, GA_ERROR_VALUE, "sum(pvals[...,:-1].astype(np.float64)) > 1.0.");
    CHECK(state_moved_by(&before, g, 0), "failed draws take no words");
    /* dirichlet: an empty alpha gives empty rows */
    ga_array *ae = ga_zeros(1, &zero, GA_FLOAT64);
    ga_array *f = ga_random_dirichlet(g, ae, 2, p23), *h = ga_random_dirichlet(g, ae, 0, NULL);
    CHECK(f && ga_ndim(f) == 3 && ga_shape(f)[0] == 2 && ga_shape(f)[1] == 3 && ga_shape(f)[2] == 0 && h && ga_ndim(h) == 1 &&
              ga_shape(h)[0] == 0,
          "dirichlet([]): shapes (2, 3, 0) and (0,): %s", ga_last_error_message());
    CHECK(state_moved_by(&before, g, 0), "dirichlet([]) takes no words");
    ga_release(f), ga_release(h), ga_release(ae);
    ga_release(po), ga_release(pn), ga_release(pf), ga_release(pf32), ga_release(pf2), ga_release(nn), ga_release(pok);
    ga_release(p), ga_release(pe), ga_release(ne), ga_release(p1), ga_release(p4);
    ga_generator_release(g);
}

/* ---- NumPy's Philox on the device --------------------------------------- */

/* A Philox(seed) generator that has drawn `pre64` next_uint64 and then
   `pre32` next_uint32 values on the host (every buffer place, with and
   without a kept high half). */
static ga_generator *numpy_rng_after(uint32_t seed, int pre64, int pre32)
{
    ga_generator *g = ga_random_philox(&seed, 1);
    uint64_t w[8];
    float f[8];
    if (g && ((pre64 && ga__random_raw(g, pre64, w) != GA_OK) || (pre32 && ga__random_float(g, pre32, f) != GA_OK)))
        ga_generator_release(g), g = NULL;
    return g;
}

/* random() in float64 and float32 and integers over 2**k values of every
   dtype: the device's values and the state after them are the host's
   (NumPy's, bit for bit: the host draws are checked against NumPy). */
DEVICE_TEST(random_device_numpy_philox_is_numpys)
{
    static const int64_t sizes[] = {1, 3, 7, 1000, 65537};
    static const struct { ga_dtype t; int64_t low; int k; } ints[] = {
        {GA_BOOL, 0, 1}, {GA_UINT8, 0, 8}, {GA_INT8, -4, 3}, {GA_INT16, 7, 12}, {GA_UINT32, 0, 32},
        {GA_INT64, -9, 20}, {GA_UINT64, 0, 64}, {GA_INT64, 1, 40},
    };
    const uint32_t seed = 1234;
    for (int pre64 = 0; pre64 < 5; pre64++)
        for (int pre32 = 0; pre32 < 2; pre32++)
            for (int c = 0; c < COUNT(sizes); c++)
                for (int kind = 0; kind < 2 + COUNT(ints); kind++) {
                    const int64_t n = sizes[c];
                    ga_generator *d = numpy_rng_after(seed, pre64, pre32), *h = numpy_rng_after(seed, pre64, pre32);
                    const ga_dtype t = kind == 0 ? GA_FLOAT64 : kind == 1 ? GA_FLOAT32 : ints[kind - 2].t;
                    const size_t size = ga_dtype_itemsize(t);
                    void *want = malloc(size * (size_t)n);
                    ga_array *a = NULL;
                    ga_status hs = GA_ERROR_HOST_OUT_OF_MEMORY;
                    if (kind < 2) {
                        a = ga_random_random(d, 1, &n, t);
                        if (want) hs = kind == 0 ? ga__random_double(h, n, (double *)want) : ga__random_float(h, n, (float *)want);
                    } else {
                        const int k = ints[kind - 2].k;
                        const ga_scalar low = ga_int(ints[kind - 2].low);
                        const ga_scalar high = k == 64 ? ga_uint(UINT64_MAX) : ga_int(ints[kind - 2].low + (int64_t)((1ull << k) - 1));
                        a = ga_random_integers(d, low, high, 1, &n, t, true);
                        if (want) hs = ga__random_integers_pow2(h, t, ints[kind - 2].low, k, n, want);
                    }
                    void *got = a ? fetch(a) : NULL;
                    ga_random_state sd, sh;
                    CHECK(got && hs == GA_OK && memcmp(got, want, size * (size_t)n) == 0,
                          "Philox %s (%lld values after %d words and %d halves): the host's values: %s", ga_dtype_name(t),
                          (long long)n, pre64, pre32, ga_last_error_message());
                    CHECK(ga_random_get_state(d, &sd) == GA_OK && ga_random_get_state(h, &sh) == GA_OK && same_state(&sd, &sh),
                          "Philox %s (%lld values after %d words and %d halves): the host's state after", ga_dtype_name(t),
                          (long long)n, pre64, pre32);
                    free(got), free(want);
                    ga_release(a);
                    ga_generator_release(d), ga_generator_release(h);
                }
}

/* ---- multivariate_normal ------------------------------------------------ */

/* An array's header with no data (device 0): enough for the argument
   checks, which come before the device. */
static ga_array mvn_shell(ga_dtype dt, int ndim, int64_t d0, int64_t d1)
{
    ga_array a;
    memset(&a, 0, sizeof a);
    a.refcount = 1, a.dtype = dt, a.ndim = ndim, a.shape[0] = d0, a.shape[1] = d1;
    a.size = ndim == 0 ? 1 : ndim == 1 ? d0 : d0 * d1;
    return a;
}

TEST(random_multivariate_normal_argument_errors)
{
    static const char f[] = "ga_random_multivariate_normal: ";
    const uint32_t seed = 6;
    ga_generator *g = ga_random_default_rng(&seed, 1), *np = ga_random_philox(&seed, 1);
    ga_random_state before;
    CHECK_OK(ga_random_get_state(g, &before));
    ga_array m3 = mvn_shell(GA_FLOAT64, 1, 3, 0), c3 = mvn_shell(GA_FLOAT64, 2, 3, 3), m2 = mvn_shell(GA_FLOAT32, 1, 2, 0);
    ga_array mc = mvn_shell(GA_COMPLEX128, 1, 3, 0), cc = mvn_shell(GA_COMPLEX64, 2, 3, 3), m0 = mvn_shell(GA_FLOAT64, 0, 0, 0);
    ga_array mm = mvn_shell(GA_FLOAT64, 2, 1, 3), c1 = mvn_shell(GA_FLOAT64, 1, 3, 0), c23 = mvn_shell(GA_FLOAT64, 2, 2, 3);
    const int64_t n4 = 4, neg[2] = {2, -1}, big[GA_MAXDIMS] = {1};
    const ga_check_valid W = GA_CHECK_VALID_WARN;
#define MVN(gen, m, c, nd, sh, cv, meth) ga_random_multivariate_normal(gen, m, c, nd, sh, cv, 1e-8, meth)
    CHECK_ERROR(MVN(g, NULL, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_NULL_INPUT, "mean");
    CHECK_ERROR(MVN(g, &m3, NULL, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_NULL_INPUT, "cov");
    CHECK_ERROR(MVN(g, &mc, &c3, 1, &n4, W, (ga_mvn_method)3) == NULL, GA_ERROR_VALUE,
                "ga_random_multivariate_normal: method must be one of {'eigh', 'svd', 'cholesky'}");
    CHECK_ERROR(MVN(g, &mc, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_TYPE, "mean and cov must not be complex");
    CHECK_ERROR(MVN(g, &m3, &cc, 1, &n4, W, GA_MVN_EIGH) == NULL, GA_ERROR_TYPE, "mean and cov must not be complex");
    CHECK_ERROR(MVN(g, &m0, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "mean must be 1 dimensional");
    CHECK_ERROR(MVN(g, &mm, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "mean must be 1 dimensional");
    CHECK_ERROR(MVN(g, &m3, &c1, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "cov must be 2 dimensional and square");
    CHECK_ERROR(MVN(g, &m3, &c23, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "cov must be 2 dimensional and square");
    CHECK_ERROR(MVN(g, &m2, &c3, 1, &n4, W, GA_MVN_CHOLESKY) == NULL, GA_ERROR_VALUE, "mean and cov must have same length");
    CHECK_ERROR(MVN(g, &m3, &c3, 2, neg, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "negative dimensions are not allowed");
    CHECK_ERROR(MVN(g, &m3, &c3, GA_MAXDIMS, big, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "size must have 0 to 31 dimensions");
    CHECK_ERROR(MVN(g, &m3, &c3, -1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, "size must have 0 to 31 dimensions");
    CHECK_ERROR(MVN(g, &m3, &c3, 1, &n4, (ga_check_valid)7, GA_MVN_SVD) == NULL, GA_ERROR_VALUE,
                "check_valid must equal 'warn', 'raise', or 'ignore'");
    CHECK_ERROR(MVN(g, &m3, &c3, 1, &n4, (ga_check_valid)-1, GA_MVN_EIGH) == NULL, GA_ERROR_VALUE,
                "check_valid must equal 'warn', 'raise', or 'ignore'");
    m3.device = 1;
    CHECK_ERROR(MVN(g, &m3, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_DEVICE, "mean is on device 1, cov on device 0");
    /* NumPy never looks at check_valid for cholesky: the next check speaks */
    CHECK_ERROR(MVN(g, &m3, &c3, 1, &n4, (ga_check_valid)7, GA_MVN_CHOLESKY) == NULL, GA_ERROR_DEVICE,
                "mean is on device 1, cov on device 0");
    c3.device = 1;
    CHECK_ERROR(MVN(g, &m3, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_DEVICE, "cov is on device 1, the current device is 0");
    m3.device = 0, c3.device = 0;
    CHECK_ERROR(MVN(np, &m3, &c3, 1, &n4, W, GA_MVN_SVD) == NULL, GA_ERROR_NOT_IMPLEMENTED, "Philox (NumPy) bit generator");
    /* the function's name leads each message */
    CHECK_ERROR(MVN(g, &m2, &c3, 0, NULL, W, GA_MVN_SVD) == NULL, GA_ERROR_VALUE, f);
#undef MVN
    CHECK(state_moved_by(&before, g, 0), "failed argument checks take no words");
    CHECK(ga_random_warnings() == 0 && ga_random_warnings() == 0, "no warnings recorded by failed calls");
    CHECK(GA_WARNING_NOT_PSD != GA_WARNING_EMPTY_SLICE && GA_WARNING_NOT_PSD != GA_WARNING_DOF &&
              GA_WARNING_NOT_PSD != GA_WARNING_ALL_NAN,
          "GA_WARNING_NOT_PSD is a bit of its own");
    ga_generator_release(g), ga_generator_release(np);
}

static const char *const mvn_method_names[3] = {"svd", "eigh", "cholesky"};

/* x (n rows of k) against mean mu and covariance c: each sample mean within
   5 standard errors sqrt(c_jj / n), each sample covariance about the true
   mean, (1/n) sum (x_j - mu_j)(x_k - mu_k), within 5 of its standard errors
   sqrt((c_jj c_kk + c_jk**2) / n) (the variance of a product of centred
   normals). */
static void check_mvn_moments(const double *x, int64_t n, int k, const double *mu, const double *c, const char *what)
{
    for (int j = 0; j < k; j++) {
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += x[i * k + j];
        const double m = s / (double)n, se = sqrt(c[j * k + j] / (double)n);
        CHECK(fabs(m - mu[j]) <= 5 * se, "%s: sample mean %d is %.6g, want %.6g (standard error %.3g)", what, j, m, mu[j], se);
        for (int l = 0; l <= j; l++) {
            double p = 0;
            for (int64_t i = 0; i < n; i++) p += (x[i * k + j] - mu[j]) * (x[i * k + l] - mu[l]);
            const double cv = p / (double)n, want = c[j * k + l];
            const double se2 = sqrt((c[j * k + j] * c[l * k + l] + want * want) / (double)n);
            CHECK(fabs(cv - want) <= 5 * se2, "%s: sample cov[%d][%d] is %.6g, want %.6g (standard error %.3g)", what, j, l,
                  cv, want, se2);
        }
    }
}

DEVICE_TEST(random_device_multivariate_normal_moments)
{
    const int64_t n = 200000, three = 3, sq3[2] = {3, 3}, one = 1, sq1[2] = {1, 1};
    const double mu3[3] = {1, -2, 0.5}, c33[9] = {4, 1.2, -0.8, 1.2, 2, 0.5, -0.8, 0.5, 1};
    const float mu1f[1] = {3}, c11f[1] = {2.5f};
    const double mu1[1] = {3}, c11[1] = {2.5};
    const uint32_t seed = 777;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *m3 = ga_from_host(mu3, 1, &three, GA_FLOAT64), *c3 = ga_from_host(c33, 2, sq3, GA_FLOAT64);
    ga_array *m1 = ga_from_host(mu1f, 1, &one, GA_FLOAT32), *c1 = ga_from_host(c11f, 2, sq1, GA_FLOAT32);
    for (int meth = 0; meth < 3; meth++)
        for (int k = 1; k <= 3; k += 2) {
            char what[96];
            snprintf(what, sizeof what, "multivariate_normal(%s, N=%d%s)", mvn_method_names[meth], k, k == 1 ? ", float32" : "");
            ga_array *x = ga_random_multivariate_normal(g, k == 3 ? m3 : m1, k == 3 ? c3 : c1, 1, &n, GA_CHECK_VALID_RAISE,
                                                        1e-8, (ga_mvn_method)meth);
            const bool shaped = x && ga_dtype_of(x) == GA_FLOAT64 && ga_ndim(x) == 2 && ga_shape(x)[0] == n && ga_shape(x)[1] == k;
            double *h = shaped ? fetch(x) : NULL;
            CHECK(h != NULL, "%s: a float64 (%lld, %d) array: %s", what, (long long)n, k, ga_last_error_message());
            if (h) check_mvn_moments(h, n, k, k == 3 ? mu3 : mu1, k == 3 ? c33 : c11, what);
            free(h);
            ga_release(x);
        }
    CHECK(ga_random_warnings() == 0, "a positive-definite cov records no warning");
    ga_release(m3), ga_release(c3), ga_release(m1), ga_release(c1);
    ga_generator_release(g);
}

/* A rank-1 cov v v^T: svd and eigh draw mu + t v (t normal with variance
   1), cholesky fails as NumPy's (LinAlgError). */
DEVICE_TEST(random_device_multivariate_normal_singular_cov)
{
    const int64_t n = 100000, three = 3, sq3[2] = {3, 3};
    const double v[3] = {1, 2, -1}, mu[3] = {0.5, 1, -3};
    double c[9];
    for (int i = 0; i < 9; i++) c[i] = v[i / 3] * v[i % 3];
    const uint32_t seed = 91;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *m = ga_from_host(mu, 1, &three, GA_FLOAT64), *cv = ga_from_host(c, 2, sq3, GA_FLOAT64);
    for (int meth = 0; meth < 2; meth++) {
        ga_array *x = ga_random_multivariate_normal(g, m, cv, 1, &n, GA_CHECK_VALID_RAISE, 1e-8, (ga_mvn_method)meth);
        double *h = x ? fetch(x) : NULL;
        CHECK(h != NULL, "multivariate_normal(%s) of a rank-1 cov: %s", mvn_method_names[meth], ga_last_error_message());
        bool on_line = h != NULL;
        for (int64_t i = 0; on_line && i < n; i++) {
            const double t = h[3 * i] - mu[0];
            /* the zero singular values come out near eps * 6: their square roots, ~1e-7, leave the line that far */
            on_line = fabs(h[3 * i + 1] - mu[1] - 2 * t) <= 1e-5 * (1 + fabs(t)) && fabs(h[3 * i + 2] - mu[2] + t) <= 1e-5 * (1 + fabs(t));
        }
        CHECK(on_line, "multivariate_normal(%s) of v v^T: every sample is mean + t v", mvn_method_names[meth]);
        if (h) check_mvn_moments(h, n, 3, mu, c, mvn_method_names[meth]);
        free(h);
        ga_release(x);
    }
    CHECK(ga_random_warnings() == 0, "a singular positive-semidefinite cov is no warning");
    CHECK_ERROR(ga_random_multivariate_normal(g, m, cv, 1, &n, GA_CHECK_VALID_WARN, 1e-8, GA_MVN_CHOLESKY) == NULL,
                GA_ERROR_LINALG, "Matrix is not positive definite");
    ga_release(m), ga_release(cv);
    ga_generator_release(g);
}

/* A cov with a negative eigenvalue, and a non-symmetric one: raise fails
   (after the draw, as NumPy's), warn draws and records GA_WARNING_NOT_PSD
   once, ignore draws silently; cholesky fails in the factoring. */
DEVICE_TEST(random_device_multivariate_normal_not_psd)
{
    const int64_t two = 2, sq2[2] = {2, 2}, five = 5, none[2] = {0, 4};
    const double mu[2] = {0, 0}, bad[4] = {1, 2, 2, 1}, skew[4] = {1, 0.5, 0, 1};
    const uint32_t seed = 12;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *m = ga_from_host(mu, 1, &two, GA_FLOAT64);
    ga_array *covs[2] = {ga_from_host(bad, 2, sq2, GA_FLOAT64), ga_from_host(skew, 2, sq2, GA_FLOAT64)};
    for (int ci = 0; ci < 2; ci++)
        for (int meth = 0; meth < 2; meth++) {
            if (ci == 1 && meth == 1) continue; /* eigh reads one triangle: the skew cov is symmetric to it */
            const char *name = mvn_method_names[meth];
            ga_random_state before;
            CHECK_OK(ga_random_get_state(g, &before));
            CHECK_ERROR(ga_random_multivariate_normal(g, m, covs[ci], 1, &five, GA_CHECK_VALID_RAISE, 1e-8, (ga_mvn_method)meth) == NULL,
                        GA_ERROR_VALUE, "ga_random_multivariate_normal: covariance is not symmetric positive-semidefinite.");
            CHECK(state_moved_by(&before, g, 20), "%s: the raise came after the draw of 10 normals (20 words), as NumPy's", name);
            CHECK(ga_random_warnings() == 0, "%s: raise records no warning", name);
            ga_array *x = ga_random_multivariate_normal(g, m, covs[ci], 1, &five, GA_CHECK_VALID_WARN, 1e-8, (ga_mvn_method)meth);
            CHECK(x && ga_shape(x)[0] == 5 && ga_shape(x)[1] == 2, "%s: warn draws: %s", name, ga_last_error_message());
            const int w1 = ga_random_warnings(), w2 = ga_random_warnings();
            CHECK(w1 == GA_WARNING_NOT_PSD && w2 == 0, "%s cov %d: warn records GA_WARNING_NOT_PSD once (got %d, then %d)", name, ci, w1, w2);
            ga_release(x);
            x = ga_random_multivariate_normal(g, m, covs[ci], 1, &five, GA_CHECK_VALID_IGNORE, 1e-8, (ga_mvn_method)meth);
            CHECK(x != NULL && ga_random_warnings() == 0, "%s: ignore draws silently: %s", name, ga_last_error_message());
            ga_release(x);
            /* no samples: the factor and its check still run, as NumPy's */
            CHECK_ERROR(ga_random_multivariate_normal(g, m, covs[ci], 2, none, GA_CHECK_VALID_RAISE, 1e-8, (ga_mvn_method)meth) == NULL,
                        GA_ERROR_VALUE, "covariance is not symmetric positive-semidefinite.");
        }
    /* a tolerance that takes the skew in: allclose within tol + tol |cov| */
    ga_array *x = ga_random_multivariate_normal(g, m, covs[1], 1, &five, GA_CHECK_VALID_RAISE, 10, GA_MVN_SVD);
    CHECK(x != NULL, "svd with tol 10 takes the skew cov: %s", ga_last_error_message());
    ga_release(x);
    CHECK_ERROR(ga_random_multivariate_normal(g, m, covs[0], 1, &five, GA_CHECK_VALID_RAISE, 1e-8, GA_MVN_CHOLESKY) == NULL,
                GA_ERROR_LINALG, "Matrix is not positive definite");
    ga_release(m), ga_release(covs[0]), ga_release(covs[1]);
    ga_generator_release(g);
}

DEVICE_TEST(random_device_multivariate_normal_sizes)
{
    const int64_t three = 3, sq3[2] = {3, 3}, zero = 0, sq0[2] = {0, 0}, empty[2] = {0, 4}, five = 5;
    const double mu[3] = {1, 2, 3}, c[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3};
    const uint32_t seed = 5150;
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_array *m = ga_from_host(mu, 1, &three, GA_FLOAT64), *cv = ga_from_host(c, 2, sq3, GA_FLOAT64);
    for (int meth = 0; meth < 3; meth++) {
        const ga_mvn_method mt = (ga_mvn_method)meth;
        ga_random_state before;
        CHECK_OK(ga_random_get_state(g, &before));
        ga_array *a = ga_random_multivariate_normal(g, m, cv, 0, NULL, GA_CHECK_VALID_WARN, 1e-8, mt);
        CHECK(a && ga_ndim(a) == 1 && ga_shape(a)[0] == 3 && ga_dtype_of(a) == GA_FLOAT64, "%s: size None: shape (3,): %s",
              mvn_method_names[meth], ga_last_error_message());
        CHECK(state_moved_by(&before, g, 6), "%s: size None: three normals, six words", mvn_method_names[meth]);
        ga_array *b = ga_random_multivariate_normal(g, m, cv, 0, &five, GA_CHECK_VALID_WARN, 1e-8, mt);
        CHECK(b && ga_ndim(b) == 1 && ga_shape(b)[0] == 3, "%s: a 0-d size: shape (3,): %s", mvn_method_names[meth],
              ga_last_error_message());
        CHECK_OK(ga_random_get_state(g, &before));
        ga_array *e = ga_random_multivariate_normal(g, m, cv, 2, empty, GA_CHECK_VALID_WARN, 1e-8, mt);
        CHECK(e && ga_ndim(e) == 3 && ga_shape(e)[0] == 0 && ga_shape(e)[1] == 4 && ga_shape(e)[2] == 3 && ga_size(e) == 0,
              "%s: size (0, 4): an empty (0, 4, 3) array: %s", mvn_method_names[meth], ga_last_error_message());
        CHECK(state_moved_by(&before, g, 0), "%s: an empty draw takes no words", mvn_method_names[meth]);
        ga_release(a), ga_release(b), ga_release(e);
    }
    ga_array *m0 = ga_zeros(1, &zero, GA_FLOAT64), *c0 = ga_zeros(2, sq0, GA_FLOAT64);
    ga_array *x0 = ga_random_multivariate_normal(g, m0, c0, 1, &five, GA_CHECK_VALID_RAISE, 1e-8, GA_MVN_SVD);
    CHECK(x0 && ga_ndim(x0) == 2 && ga_shape(x0)[0] == 5 && ga_shape(x0)[1] == 0, "N = 0: a (5, 0) array: %s",
          ga_last_error_message());
    ga_release(x0), ga_release(m0), ga_release(c0), ga_release(m), ga_release(cv);
    ga_generator_release(g);
}

/* x - mean is z @ A^T with z the standard normals a copy of the generator
   draws (the same words), A NumPy's factor of the linalg functions' own
   results: svd u * sqrt(s), eigh u * sqrt(|s|), cholesky L. */
DEVICE_TEST(random_device_multivariate_normal_is_z_at_the_factor)
{
    const int64_t rows = 1000, three = 3, sq3[2] = {3, 3}, zs[2] = {rows, 3};
    const double mu[3] = {-1, 0.25, 4}, c[9] = {2, 0.3, 0.1, 0.3, 1, -0.2, 0.1, -0.2, 0.5};
    const uint32_t seed = 8080;
    ga_array *m = ga_from_host(mu, 1, &three, GA_FLOAT64), *cv = ga_from_host(c, 2, sq3, GA_FLOAT64);
    for (int meth = 0; meth < 3; meth++) {
        ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
        ga_array *pre = ga_random_bytes(g, 5), *pre2 = ga_random_bytes(h, 5); /* start mid-block */
        ga_array *x = ga_random_multivariate_normal(g, m, cv, 1, &rows, GA_CHECK_VALID_RAISE, 1e-8, (ga_mvn_method)meth);
        ga_array *z = ga_random_standard_normal(h, 2, zs, GA_FLOAT64);
        ga_array *u = NULL, *s = NULL, *vh = NULL;
        double a[9] = {0}; /* NumPy's factor A, row-major */
        bool got_a = false;
        if (meth == 0 && ga_linalg_svd(cv, true, &u, &s, &vh) == GA_OK) {
            double *hu = fetch(u), *hs = fetch(s);
            for (int i = 0; hu && hs && i < 9; i++) a[i] = hu[i] * sqrt(hs[i % 3]);
            got_a = hu && hs;
            free(hu), free(hs);
        } else if (meth == 1 && ga_linalg_eigh(cv, 'L', &s, &u) == GA_OK) {
            double *hu = fetch(u), *hs = fetch(s);
            for (int i = 0; hu && hs && i < 9; i++) a[i] = hu[i] * sqrt(fabs(hs[i % 3]));
            got_a = hu && hs;
            free(hu), free(hs);
        } else if (meth == 2 && (u = ga_linalg_cholesky(cv, false)) != NULL) {
            double *hl = fetch(u);
            for (int i = 0; hl && i < 9; i++) a[i] = hl[i];
            got_a = hl != NULL;
            free(hl);
        }
        double *hx = x ? fetch(x) : NULL, *hz = z ? fetch(z) : NULL;
        CHECK(hx && hz && got_a, "%s: x, z and the factor: %s", mvn_method_names[meth], ga_last_error_message());
        double worst = 0;
        for (int64_t i = 0; hx && hz && got_a && i < rows; i++)
            for (int j = 0; j < 3; j++) {
                double want = mu[j];
                for (int k = 0; k < 3; k++) want += hz[3 * i + k] * a[3 * j + k]; /* (z @ A^T)[i][j] */
                worst = fmax(worst, fabs(hx[3 * i + j] - want) / (1 + fabs(want)));
            }
        CHECK(worst <= 1e-12, "%s: x = mean + z @ A^T of standard_normal's z (worst relative difference %.3g)",
              mvn_method_names[meth], worst);
        ga_random_state sg, sh;
        CHECK(ga_random_get_state(g, &sg) == GA_OK && ga_random_get_state(h, &sh) == GA_OK && same_state(&sg, &sh),
              "%s: the generator moved as standard_normal((1000, 3)) moves it", mvn_method_names[meth]);
        free(hx), free(hz);
        ga_release(u), ga_release(s), ga_release(vh), ga_release(x), ga_release(z), ga_release(pre), ga_release(pre2);
        ga_generator_release(g), ga_generator_release(h);
    }
    ga_release(m), ga_release(cv);
}
