/* Fuzzes the dtype names and promotion: ga_dtype_from_name on any text,
   then ga_promote_types, ga_can_cast and ga_result_type on dtype values,
   castings and scalar kinds drawn from the input (invalid ones included).

   Invariants: a name found round-trips through ga_dtype_name and no other
   text is a dtype; promotion is symmetric, gives a valid dtype or
   GA_DTYPE_INVALID (exactly when an input is invalid), to which both cast
   safely; result_type of one dtype and no scalars is that dtype. */
#include "fuzz.h"

static ga_dtype some_dtype(fuzz_in *in)
{
    unsigned sel = fuzz_byte(in);
    return sel < 240 ? (ga_dtype)(sel % GA_NUM_DTYPES) : (ga_dtype)(int32_t)fuzz_bits(in, 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = (char *)malloc(size + 1);
    memcpy(name, data, size);
    name[size] = 0;
    ga_dtype t = ga_dtype_from_name(name);
    if (t == GA_DTYPE_INVALID) {
        for (int i = 0; i < GA_NUM_DTYPES; i++)
            FUZZ_CHECK(strcmp(name, ga_dtype_name((ga_dtype)i)) != 0, "\"%s\" is a dtype's name", name);
    } else {
        FUZZ_CHECK((int)t >= 0 && t < GA_NUM_DTYPES && strcmp(ga_dtype_name(t), name) == 0, "\"%s\" round trip", name);
    }
    free(name);

    fuzz_in in = {data, size};
    ga_dtype a = some_dtype(&in), b = some_dtype(&in);
    bool valid = (int)a >= 0 && a < GA_NUM_DTYPES && (int)b >= 0 && b < GA_NUM_DTYPES;
    ga_dtype p = ga_promote_types(a, b);
    FUZZ_CHECK(p == ga_promote_types(b, a), "promote_types is not symmetric");
    FUZZ_CHECK(valid ? ((int)p >= 0 && p < GA_NUM_DTYPES) : p == GA_DTYPE_INVALID, "promote_types(%d, %d) = %d", (int)a,
               (int)b, (int)p);
    if (valid)
        FUZZ_CHECK(ga_can_cast(a, p, GA_CASTING_SAFE) && ga_can_cast(b, p, GA_CASTING_SAFE),
                   "%s and %s do not both cast safely to their promotion %s", ga_dtype_name(a), ga_dtype_name(b),
                   ga_dtype_name(p));
    ga_casting c = (ga_casting)(int32_t)fuzz_bits(&in, 1) - 2;
    (void)ga_can_cast(a, b, c);
    FUZZ_CHECK(((int)a >= 0 && a < GA_NUM_DTYPES) == (ga_dtype_itemsize(a) > 0), "itemsize of %d", (int)a);
    ga_scalar scalars[4];
    int nscalars = (int)(fuzz_byte(&in) % 5);
    for (int i = 0; i < nscalars; i++) {
        scalars[i] = ga_int(1);
        scalars[i].kind = (ga_scalar_kind)(int32_t)(fuzz_byte(&in) % 8);
    }
    ga_dtype dts[2] = {a, b};
    int ndtypes = (int)(fuzz_byte(&in) % 3);
    ga_dtype r = ga_result_type(ndtypes, dts, nscalars, scalars);
    FUZZ_CHECK(r == GA_DTYPE_INVALID || ((int)r >= 0 && r < GA_NUM_DTYPES), "result_type = %d", (int)r);
    if (ndtypes == 1 && nscalars == 0) FUZZ_CHECK(r == ((int)a >= 0 && a < GA_NUM_DTYPES ? a : GA_DTYPE_INVALID),
                                                  "result_type of one dtype");
    (void)ga_result_type(ndtypes, NULL, nscalars, NULL); /* NULL lists: no crash */
    return 0;
}
