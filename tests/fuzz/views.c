/* Fuzzes the view functions of >>manip with axes and counts drawn from
   small and edge values (INT_MIN, INT_MAX, +-GA_MAXDIMS): rot90,
   swapaxes, moveaxis, transpose, expand_dims, squeeze, flip, diagonal,
   split, array_split, split_at, atleast_nd, fliplr/flipud.

   Invariants: every result is a valid view inside its input's buffer;
   views that only reorder (rot90, swapaxes, moveaxis, transpose, flip,
   expand_dims, squeeze) hold exactly the input's elements (the same byte
   addresses, compared sorted); split pieces add up to the input along the
   axis; failures carry the allowed codes and name the function. */
#include "fuzz.h"

static int compare_addresses(const void *x, const void *y)
{
    __int128 a = *(const __int128 *)x, b = *(const __int128 *)y;
    return a < b ? -1 : a > b;
}

/* v holds exactly a's elements (for arrays of at most 4096 elements). */
static void check_same_elements(const char *what, const ga_array *v, const ga_array *a)
{
    FUZZ_CHECK(v->size == a->size, "%s: %lld elements from %lld", what, (long long)v->size, (long long)a->size);
    if (a->size == 0 || a->size > 4096) return;
    __int128 *x = (__int128 *)malloc(sizeof *x * (size_t)a->size), *y = (__int128 *)malloc(sizeof *y * (size_t)a->size);
    for (int64_t k = 0; k < a->size; k++) x[k] = fuzz_address(a, k), y[k] = fuzz_address(v, k);
    qsort(x, (size_t)a->size, sizeof *x, compare_addresses);
    qsort(y, (size_t)a->size, sizeof *y, compare_addresses);
    FUZZ_CHECK(memcmp(x, y, sizeof *x * (size_t)a->size) == 0, "%s: not the same elements", what);
    free(x);
    free(y);
}

static const ga_status view_errors[] = {GA_ERROR_AXIS, GA_ERROR_VALUE, GA_ERROR_INDEX, GA_ERROR_SHAPE, GA_OK};

static void check_result(const char *func, ga_array *v, const ga_array *a, bool same_elements)
{
    if (!v) {
        fuzz_check_error(func, view_errors);
        return;
    }
    fuzz_check_view(func, v, a);
    if (same_elements) check_same_elements(func, v, a);
    ga_release(v);
}

static void splits(fuzz_in *in, const ga_array *a, unsigned op)
{
    const char *func = op == 0 ? "ga_split" : op == 1 ? "ga_array_split" : "ga_split_at";
    int axis = fuzz_axis(in), n = 0;
    int64_t sections = fuzz_byte(in) < 200 ? (int64_t)(fuzz_byte(in) % 8) : fuzz_int64(in), idx[8];
    ga_array *out[16] = {NULL};
    ga_status st;
    if (op == 2) {
        n = (int)(fuzz_byte(in) % 8);
        for (int i = 0; i < n; i++) idx[i] = fuzz_int64(in);
        st = ga_split_at(a, n, idx, axis, out);
    } else {
        if (sections > 15) sections = 15 + (sections & 1); /* out holds 16 */
        if (sections > 15) sections = -sections;
        st = op == 0 ? ga_split(a, sections, axis, out) : ga_array_split(a, sections, axis, out);
        n = sections > 0 && sections < 16 ? (int)sections - 1 : 0; /* read on success only */
    }
    if (st != GA_OK) {
        fuzz_check_error(func, view_errors);
        for (int i = 0; i < 16; i++) FUZZ_CHECK(!out[i], "%s failed and stored a piece", func);
        return;
    }
    int ax = axis < 0 ? axis + a->ndim : axis;
    int64_t total = 0;
    for (int i = 0; i <= n; i++) {
        FUZZ_CHECK(out[i], "%s: piece %d missing", func, i);
        fuzz_check_view(func, out[i], a);
        total += out[i]->shape[ax];
        ga_release(out[i]);
    }
    if (op != 2) FUZZ_CHECK(total == a->shape[ax], "%s: pieces of %lld along an axis of %lld", func, (long long)total,
                            (long long)a->shape[ax]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned op = fuzz_byte(&in) % 14;
    ga_array *a = fuzz_array(&in);
    int axes[GA_MAXDIMS + 4] = {0}, other[GA_MAXDIMS + 4] = {0};
    int naxes = (int)(fuzz_byte(&in) % 6);
    if (fuzz_byte(&in) == 255) naxes = fuzz_axis(&in);
    int stored = naxes < 0 ? 0 : naxes > GA_MAXDIMS + 4 ? GA_MAXDIMS + 4 : naxes;
    for (int i = 0; i < stored; i++) axes[i] = fuzz_axis(&in), other[i] = fuzz_axis(&in);
    if (naxes > stored) naxes = stored; /* the arrays hold `stored` */
    ga_clear_error();
    switch (op) {
    case 0: {
        int k = fuzz_byte(&in) & 1 ? fuzz_axis(&in) : (int)(fuzz_byte(&in) % 8) - 4;
        int axis1 = fuzz_axis(&in), axis2 = fuzz_axis(&in); /* read in order: arguments are not */
        check_result("ga_rot90", ga_rot90(a, k, axis1, axis2), a, true);
        break;
    }
    case 1: {
        int axis1 = fuzz_axis(&in), axis2 = fuzz_axis(&in);
        check_result("ga_swapaxes", ga_swapaxes(a, axis1, axis2), a, true);
        break;
    }
    case 2: check_result("ga_moveaxis", ga_moveaxis(a, fuzz_byte(&in) == 255 ? fuzz_axis(&in) : naxes, axes, other), a, true); break;
    case 3: check_result("ga_transpose", ga_transpose(a, fuzz_byte(&in) & 1 ? NULL : (naxes >= a->ndim ? axes : NULL)), a, true); break;
    case 4: check_result("ga_expand_dims", ga_expand_dims(a, fuzz_byte(&in) == 255 ? fuzz_axis(&in) : naxes, axes), a, true); break;
    case 5: check_result("ga_squeeze", ga_squeeze(a, naxes, axes), a, true); break;
    case 6: check_result("ga_flip", ga_flip(a, naxes, axes), a, true); break;
    case 7: {
        int64_t offset = fuzz_int64(&in);
        int axis1 = fuzz_axis(&in), axis2 = fuzz_axis(&in);
        check_result("ga_diagonal", ga_diagonal(a, offset, axis1, axis2), a, false);
        break;
    }
    case 8: case 9: case 10: splits(&in, a, op - 8); break;
    case 11: {
        static const char *names[3] = {"ga_atleast_1d", "ga_atleast_2d", "ga_atleast_3d"};
        unsigned w = fuzz_byte(&in) % 3;
        ga_array *v = w == 0 ? ga_atleast_1d(a) : w == 1 ? ga_atleast_2d(a) : ga_atleast_3d(a);
        check_result(names[w], v, a, true);
        break;
    }
    case 12: check_result("ga_fliplr", ga_fliplr(a), a, true); break;
    default: check_result("ga_flipud", ga_flipud(a), a, true); break;
    }
    fuzz_release_base(a);
    return 0;
}
