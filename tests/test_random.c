/* Host tests of the random numbers' foundation (gpuarr.h, >>random): NumPy's
   SeedSequence, numpy.random.Philox (Philox4x64-10) and the host draws of
   Generator(Philox(seed)) bit for bit against NumPy's answers in
   tests/random_cases.h (tools/gen_random_cases.py): generate_state for
   integer and word-array seeds and spawn keys, raw streams, random() in
   float64 and float32, integers over power-of-two ranges for every bool and
   integer dtype, advance, jumped, spawn, and the state after each. The
   default bit generator, Philox4x32-10, against Random123's known answers,
   its seeding and its stream's contract. Error paths check NumPy's words.
   No GPU needed. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "random_cases.h"

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
