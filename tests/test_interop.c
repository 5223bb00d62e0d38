/* Interop: DLPack and memory allocated elsewhere (section >>interop).

   Host: DLPack's dtypes both ways; the import's errors that need no GPU
   (a NULL tensor, another major version, an unknown dtype or device), each
   calling the producer's deleter exactly once.
   Device: export and import of every dtype sharing one allocation, views of
   every kind (negative, zero and transposed strides, offsets, 0-d, empty),
   the copies (complex128 strides DLPack cannot state, GA_COPY_ALWAYS) and
   their flags, read-only arrays both ways, the legacy structs, host tensors
   copied in, the stream hand-over, ga_from_device_ptr's views, release
   callback and errors. Each deleter and release callback is counted: it
   must run once, when the last view goes. (tests/dlpack_interop.py does
   the same with CuPy and PyTorch as the other side.) */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

/* --- counting the producer's deleter ------------------------------------ */

static int deletes; /* deleter calls since the test reset it */
static void (*inner_deleter)(DLManagedTensorVersioned *);
static void (*inner_deleter_legacy)(DLManagedTensor *);

static void counting_deleter(DLManagedTensorVersioned *t)
{
    deletes++;
    inner_deleter(t);
}

static void counting_deleter_legacy(DLManagedTensor *t)
{
    deletes++;
    inner_deleter_legacy(t);
}

/* gpuarr's export with its deleter counted */
static DLManagedTensorVersioned *counted(DLManagedTensorVersioned *t)
{
    if (t) inner_deleter = t->deleter, t->deleter = counting_deleter;
    return t;
}

static DLManagedTensor *counted_legacy(DLManagedTensor *t)
{
    if (t) inner_deleter_legacy = t->deleter, t->deleter = counting_deleter_legacy;
    return t;
}

/* A tensor made by a producer of our own, over `data` (not owned). */
typedef struct own_tensor {
    DLManagedTensorVersioned t;
    int64_t shape[4], strides[4];
} own_tensor;

static void own_deleter(DLManagedTensorVersioned *t)
{
    deletes++;
    free(t->manager_ctx);
}

static DLManagedTensorVersioned *own_new(void *data, int device_type, DLDataType dtype, int ndim, const int64_t *shape,
                                         const int64_t *strides)
{
    own_tensor *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->t.version.major = 1;
    o->t.manager_ctx = o;
    o->t.deleter = own_deleter;
    o->t.dl_tensor.data = data;
    o->t.dl_tensor.device.device_type = (DLDeviceType)device_type;
    o->t.dl_tensor.ndim = ndim;
    o->t.dl_tensor.dtype = dtype;
    o->t.dl_tensor.shape = o->shape;
    o->t.dl_tensor.strides = strides ? o->strides : NULL;
    for (int d = 0; d < ndim; d++) o->shape[d] = shape[d], o->strides[d] = strides ? strides[d] : 0;
    return &o->t;
}

static DLDataType dl(int code, int bits)
{
    DLDataType d = {(uint8_t)code, (uint8_t)bits, 1};
    return d;
}

/* --- host --------------------------------------------------------------- */

TEST(dlpack_dtypes_both_ways)
{
    static const struct { ga_dtype t; int code, bits; } table[] = {
        {GA_BOOL, kDLBool, 8},       {GA_INT8, kDLInt, 8},        {GA_INT16, kDLInt, 16},
        {GA_INT32, kDLInt, 32},      {GA_INT64, kDLInt, 64},      {GA_UINT8, kDLUInt, 8},
        {GA_UINT16, kDLUInt, 16},    {GA_UINT32, kDLUInt, 32},    {GA_UINT64, kDLUInt, 64},
        {GA_FLOAT16, kDLFloat, 16},  {GA_BFLOAT16, kDLBfloat, 16}, {GA_FLOAT32, kDLFloat, 32},
        {GA_FLOAT64, kDLFloat, 64},  {GA_COMPLEX64, kDLComplex, 64}, {GA_COMPLEX128, kDLComplex, 128},
    };
    CHECK(sizeof table / sizeof table[0] == GA_NUM_DTYPES, "every dtype in the table");
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        DLDataType d = ga__dlpack_dtype(table[i].t);
        CHECK(d.code == table[i].code && d.bits == table[i].bits && d.lanes == 1, "%s as DLPack: code %u bits %u",
              ga_dtype_name(table[i].t), d.code, d.bits);
        CHECK(ga__dtype_from_dlpack(dl(table[i].code, table[i].bits)) == table[i].t, "%s back", ga_dtype_name(table[i].t));
    }
    DLDataType vec = dl(kDLFloat, 32);
    vec.lanes = 4;
    CHECK(ga__dtype_from_dlpack(vec) == GA_DTYPE_INVALID, "float32x4 is not a gpuarr dtype");
    CHECK(ga__dtype_from_dlpack(dl(kDLFloat8_e4m3fn, 8)) == GA_DTYPE_INVALID, "float8 is not a gpuarr dtype");
    CHECK(ga__dtype_from_dlpack(dl(kDLInt, 128)) == GA_DTYPE_INVALID, "int128 is not a gpuarr dtype");
}

TEST(dlpack_import_errors_give_the_tensor_back)
{
    float host[6] = {0};
    const int64_t shape[2] = {2, 3};
    CHECK_ERROR(ga_from_dlpack(NULL, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_NULL_INPUT, "ga_from_dlpack");
    CHECK_ERROR(ga_from_dlpack_legacy(NULL, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_NULL_INPUT, "ga_from_dlpack_legacy");
    deletes = 0;
    DLManagedTensorVersioned *t = own_new(host, kDLCPU, dl(kDLFloat, 32), 2, shape, NULL);
    t->version.major = 2;
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_VALUE,
                "ga_from_dlpack: DLPack version 2.0 is not supported (gpuarr reads 1.x)");
    CHECK(deletes == 1, "another major version: the deleter called once (%d)", deletes);
    t = own_new(host, kDLCPU, dl(kDLFloat8_e5m2, 8), 2, shape, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_TYPE,
                "ga_from_dlpack: unsupported DLPack dtype (code 12, 8 bits, 1 lanes)");
    t = own_new(host, kDLOpenCL, dl(kDLFloat, 32), 2, shape, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_DEVICE,
                "ga_from_dlpack: unsupported DLPack device type 4");
    t = own_new(host, kDLCPU, dl(kDLFloat, 32), 2, shape, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_NEVER) == NULL, GA_ERROR_VALUE,
                "the tensor is in host memory (kDLCPU): it can only be copied to the device, and copy is GA_COPY_NEVER");
    t = own_new(host, kDLCPU, dl(kDLFloat, 32), 2, shape, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, (ga_copy_mode)7) == NULL, GA_ERROR_VALUE, "copy must be GA_COPY_IF_NEEDED");
    t = own_new(host, kDLCPU, dl(kDLFloat, 32), 2, (const int64_t[]){2, -3}, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_VALUE, "negative");
    t = own_new(NULL, kDLCPU, dl(kDLFloat, 32), 2, shape, NULL);
    CHECK_ERROR(ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_NULL_INPUT, "the tensor's data");
    CHECK(deletes == 7, "each refused tensor's deleter called once: %d of 7", deletes);
    CHECK_ERROR(ga_to_dlpack(NULL, -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_NULL_INPUT, "ga_to_dlpack");
    CHECK_ERROR(ga_from_device_ptr(host, (ga_dtype)99, 1, shape, NULL, -1, NULL, NULL) == NULL, GA_ERROR_TYPE,
                "ga_from_device_ptr: invalid dtype 99");
    CHECK_ERROR(ga_from_device_ptr(host, GA_FLOAT32, 1, NULL, NULL, -1, NULL, NULL) == NULL, GA_ERROR_NULL_INPUT,
                "ga_from_device_ptr");
}

/* --- device: DLPack ------------------------------------------------------ */

DEVICE_TEST(dlpack_round_trip_shares_memory)
{
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        ga_array *r = ga_arange(0, 24, 1, GA_FLOAT64), *c = ga_astype(r, (ga_dtype)t);
        ga_array *x = ga_reshape(c, GA_SHAPE(2, 3, 4));
        deletes = 0;
        DLManagedTensorVersioned *m = counted(ga_to_dlpack(x, -1, GA_COPY_IF_NEEDED));
        CHECK(m && m->version.major == 1 && m->flags == 0 && m->dl_tensor.device.device_type == kDLCUDA &&
                  m->dl_tensor.device.device_id == ga_device_of(x) && m->dl_tensor.data == ga_data(x) &&
                  m->dl_tensor.byte_offset == 0 && m->dl_tensor.ndim == 3 && m->dl_tensor.shape[0] == 2 &&
                  m->dl_tensor.shape[2] == 4 && m->dl_tensor.strides[0] == 12 && m->dl_tensor.strides[1] == 4 &&
                  m->dl_tensor.strides[2] == 1,
              "%s export: %s", ga_dtype_name((ga_dtype)t), ga_last_error_message());
        ga_array *y = m ? ga_from_dlpack(m, -1, GA_COPY_IF_NEEDED) : NULL;
        CHECK(y && ga_data(y) == ga_data(x) && same_array(x, y) && (ga_flags(y) & GA_WRITEABLE), "%s import: %s",
              ga_dtype_name((ga_dtype)t), ga_last_error_message());
        ga_release(x), ga_release(c), ga_release(r); /* y keeps the memory */
        ga_array *ones = ga_ones(GA_SHAPE(2, 3, 4), (ga_dtype)t), *y1 = y ? ga_index(y, "1") : NULL;
        CHECK_OK(ga_copyto(y, ones, GA_CASTING_NO));
        CHECK(same_array(y, ones), "%s: written through the import", ga_dtype_name((ga_dtype)t));
        ga_release(y);
        CHECK(deletes == 0, "a view still holds the memory: no deleter yet (%d)", deletes);
        ga_array *o1 = ga_index(ones, "1");
        CHECK(same_array(y1, o1), "%s: the view outlives the import", ga_dtype_name((ga_dtype)t));
        ga_release(y1);
        CHECK(deletes == 1, "%s: the deleter ran once, with the last view (%d)", ga_dtype_name((ga_dtype)t), deletes);
        ga_release(o1), ga_release(ones);
    }
    ga_clear_error();
}

DEVICE_TEST(dlpack_views_keep_their_layout)
{
    ga_array *r = ga_arange(0, 60, 1, GA_INT32), *x = ga_reshape(r, GA_SHAPE(3, 4, 5));
    ga_array *one = ga_arange(7, 8, 1, GA_FLOAT32);
    ga_array *views[] = {
        ga_index(x, "::-1, 1::2, ::-2"), ga_transpose(x, NULL), ga_index(x, "1, 2:, 3"), ga_index(x, "2, 3, 4"),
        ga_index(x, ":, :0"), ga_broadcast_to(one, GA_SHAPE(4, 3)), ga_index(x, "..., None, 1:4"),
    };
    const int n = (int)(sizeof views / sizeof views[0]);
    for (int k = 0; k < n; k++) {
        deletes = 0;
        DLManagedTensorVersioned *m = counted(ga_to_dlpack(views[k], -1, GA_COPY_IF_NEEDED));
        bool strides_kept = m != NULL;
        for (int d = 0; m && d < ga_ndim(views[k]); d++)
            if (ga_shape(views[k])[d] > 1 && ga_size(views[k]) > 0)
                strides_kept = strides_kept && m->dl_tensor.strides[d] * (int64_t)ga_itemsize(views[k]) == ga_strides(views[k])[d];
        CHECK(strides_kept && !(m->flags & DLPACK_FLAG_BITMASK_IS_COPIED), "view %d: shared, its strides in elements", k);
        CHECK(!m || (ga_size(views[k]) == 0) == (m->dl_tensor.data == NULL), "view %d: data NULL exactly when empty", k);
        ga_array *y = m ? ga_from_dlpack(m, -1, GA_COPY_IF_NEEDED) : NULL;
        CHECK(y && same_array(views[k], y) && (ga_size(y) == 0 || ga_data(y) == ga_data(views[k])), "view %d back: %s", k,
              ga_last_error_message());
        for (int d = 0; y && d < ga_ndim(y); d++)
            CHECK(ga_shape(y)[d] <= 1 || ga_size(y) == 0 || ga_strides(y)[d] == ga_strides(views[k])[d],
                  "view %d: dim %d's stride", k, d);
        ga_release(y);
        CHECK(deletes == 1, "view %d: one deleter call (%d)", k, deletes);
    }
    /* the broadcast view is read-only: flagged, and the import is read-only too */
    DLManagedTensorVersioned *m = ga_to_dlpack(views[5], -1, GA_COPY_IF_NEEDED);
    CHECK(m && (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY), "a read-only export is flagged");
    ga_array *y = m ? ga_from_dlpack(m, -1, GA_COPY_IF_NEEDED) : NULL;
    CHECK(y && !(ga_flags(y) & GA_WRITEABLE), "a read-only import is read-only");
    CHECK_ERROR(ga_copyto(y, one, GA_CASTING_NO) != GA_OK, GA_ERROR_VALUE, "read-only");
    ga_release(y);
    CHECK_ERROR(ga_to_dlpack_legacy(views[5], -1, GA_COPY_IF_NEEDED) == NULL, GA_ERROR_VALUE,
                "ga_to_dlpack_legacy: Cannot export readonly array since signalling readonly is unsupported by DLPack");
    DLManagedTensor *l = ga_to_dlpack_legacy(views[5], -1, GA_COPY_ALWAYS);
    CHECK(l && l->dl_tensor.data != ga_data(views[5]), "a read-only array goes out as a legacy copy when asked");
    ga_array *ly = l ? ga_from_dlpack_legacy(l, -1, GA_COPY_IF_NEEDED) : NULL;
    CHECK(same_array(ly, views[5]) && (ga_flags(ly) & GA_WRITEABLE), "the legacy copy: %s", ga_last_error_message());
    ga_release(ly);
    for (int k = 0; k < n; k++) ga_release(views[k]);
    ga_release(one), ga_release(x), ga_release(r);
    ga_clear_error();
}

DEVICE_TEST(dlpack_copies_and_their_flags)
{
    /* complex128 at byte strides of 8: no element strides state it */
    ga_array *z = ga_zeros(GA_SHAPE(8), GA_COMPLEX128), *r = ga_arange(0, 16, 1, GA_FLOAT64);
    ga_array *zr = ga_as_strided(z, GA_SHAPE(15), (const int64_t[]){8}, 0);
    CHECK_ERROR(ga_to_dlpack(zr, -1, GA_COPY_NEVER) == NULL, GA_ERROR_VALUE,
                "DLPack strides count elements: this complex128 view's byte strides are not multiples of 16");
    DLManagedTensorVersioned *m = ga_to_dlpack(zr, -1, GA_COPY_IF_NEEDED);
    CHECK(m && (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) && m->dl_tensor.strides[0] == 1 && m->dl_tensor.data != ga_data(z),
          "copied to C order and flagged: %s", ga_last_error_message());
    ga_array *y = m ? ga_from_dlpack(m, -1, GA_COPY_IF_NEEDED) : NULL;
    CHECK(same_array(y, zr), "the copy's values");
    ga_release(y);
    /* GA_COPY_ALWAYS both ways */
    m = ga_to_dlpack(r, -1, GA_COPY_ALWAYS);
    CHECK(m && (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) && m->dl_tensor.data != ga_data(r), "copy=True exports a copy");
    deletes = 0;
    counted(m);
    const void *exported = m ? m->dl_tensor.data : NULL;
    y = m ? ga_from_dlpack(m, -1, GA_COPY_ALWAYS) : NULL;
    CHECK(y && same_array(y, r) && ga_data(y) != exported, "copy=True imports a copy");
    CHECK(deletes == 1, "the copied import gave the tensor back at once (%d)", deletes);
    ga_release(y), ga_release(zr), ga_release(z), ga_release(r);
    ga_clear_error();
}

DEVICE_TEST(dlpack_legacy_tensors)
{
    ga_array *r = ga_arange(0, 12, 1, GA_INT64), *x = ga_reshape(r, GA_SHAPE(3, 4)), *v = ga_index(x, ":, ::-1");
    deletes = 0;
    DLManagedTensor *l = counted_legacy(ga_to_dlpack_legacy(v, -1, GA_COPY_IF_NEEDED));
    CHECK(l && l->dl_tensor.data == ga_data(v) && l->dl_tensor.strides[1] == -1, "legacy export shares the view");
    ga_array *y = l ? ga_from_dlpack_legacy(l, -1, GA_COPY_IF_NEEDED) : NULL;
    CHECK(same_array(y, v), "legacy import: %s", ga_last_error_message());
    ga_release(y);
    CHECK(deletes == 1, "legacy deleter once (%d)", deletes);
    /* a producer's legacy tensor without strides: C order */
    DLManagedTensorVersioned *o = own_new(ga_data(x), kDLCUDA, dl(kDLInt, 64), 2, (const int64_t[]){4, 3}, NULL);
    DLManagedTensor legacy = {o->dl_tensor, NULL, NULL}; /* (no deleter: NULL is allowed) */
    y = ga_from_dlpack_legacy(&legacy, -1, GA_COPY_IF_NEEDED);
    ga_array *x43 = ga_reshape(x, GA_SHAPE(4, 3));
    CHECK(same_array(y, x43) && ga_strides(y)[0] == 24, "strides NULL read as C order: %s", ga_last_error_message());
    ga_release(y), ga_release(x43);
    free(o);
    /* byte_offset counts */
    o = own_new(ga_data(x), kDLCUDA, dl(kDLInt, 64), 1, (const int64_t[]){2}, (const int64_t[]){5});
    o->dl_tensor.byte_offset = 8;
    deletes = 0;
    y = ga_from_dlpack(o, -1, GA_COPY_IF_NEEDED);
    int64_t h[2] = {0};
    CHECK(y && ga_to_host(y, h, sizeof h) == GA_OK && h[0] == 1 && h[1] == 6, "byte_offset 8, stride 5: %lld %lld",
          (long long)h[0], (long long)h[1]);
    ga_release(y);
    CHECK(deletes == 1, "the producer's deleter once (%d)", deletes);
    ga_release(v), ga_release(x), ga_release(r);
    ga_clear_error();
}

DEVICE_TEST(dlpack_host_tensors_are_copied_in)
{
    double host[12];
    for (int i = 0; i < 12; i++) host[i] = i * 0.5;
    deletes = 0;
    /* a (4, 3) transposed view of a (3, 4) C array: strides (1, 4) */
    DLManagedTensorVersioned *t = own_new(host, kDLCPU, dl(kDLFloat, 64), 2, (const int64_t[]){4, 3}, (const int64_t[]){1, 4});
    ga_array *a = ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED);
    CHECK(deletes == 1, "the host tensor given back as soon as it is copied (%d)", deletes);
    double back[12] = {0};
    CHECK(a && ga_to_host(a, back, sizeof back) == GA_OK, "host import: %s", ga_last_error_message());
    bool right = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) right = right && back[i * 3 + j] == host[j * 4 + i];
    CHECK(right && (ga_flags(a) & GA_C_CONTIGUOUS), "the strided host tensor gathered to C order");
    ga_release(a);
    t = own_new(host, kDLCUDAHost, dl(kDLFloat, 64), 1, (const int64_t[]){12}, NULL);
    a = ga_from_dlpack(t, -1, GA_COPY_IF_NEEDED);
    CHECK(a && ga_to_host(a, back, sizeof back) == GA_OK && memcmp(back, host, sizeof host) == 0, "kDLCUDAHost copied in");
    CHECK(deletes == 2, "given back (%d)", deletes);
    ga_release(a);
    ga_clear_error();
}

DEVICE_TEST(dlpack_stream_hand_over)
{
    /* written on the default stream, read on a non-blocking stream: the
       export makes the reader wait (without it, the sum would race) */
    const int64_t n = test_small() ? 1 << 20 : 1 << 26;
    ga_stream *s = ga_stream_create(true);
    for (int round = 0; round < 3; round++) {
        ga_array *x = ga_full(GA_SHAPE(n), ga_int(1), GA_INT32), *y = ga_multiply_scalar(x, ga_int(4));
        DLManagedTensorVersioned *m = ga_to_dlpack(y, (intptr_t)ga_stream_handle(s), GA_COPY_IF_NEEDED);
        ga_release(y), ga_release(x);
        CHECK_OK(ga_stream_push(s));
        ga_array *z = m ? ga_from_dlpack(m, -1, GA_COPY_IF_NEEDED) : NULL, *sum = ga_sum(z, 0, NULL, false);
        int64_t total = 0;
        CHECK(sum && ga_to_host(sum, &total, sizeof total) == GA_OK && total == 4 * n, "round %d: sum %lld", round,
              (long long)total);
        ga_release(sum), ga_release(z);
        CHECK_OK(ga_stream_pop());
        /* the other way: the producer's stream named on import */
        CHECK_OK(ga_stream_push(s));
        ga_array *p = ga_full(GA_SHAPE(n), ga_int(3), GA_INT32);
        m = ga_to_dlpack(p, -1, GA_COPY_IF_NEEDED);
        ga_release(p);
        CHECK_OK(ga_stream_pop());
        z = m ? ga_from_dlpack(m, (intptr_t)ga_stream_handle(s), GA_COPY_IF_NEEDED) : NULL;
        sum = ga_sum(z, 0, NULL, false);
        CHECK(sum && ga_to_host(sum, &total, sizeof total) == GA_OK && total == 3 * n, "round %d: sum %lld", round,
              (long long)total);
        ga_release(sum), ga_release(z);
    }
    ga_stream_synchronize(s);
    ga_stream_destroy(s);
    ga_clear_error();
}

/* --- device: memory allocated elsewhere ---------------------------------- */

static int releases;
static void count_release(void *p)
{
    releases++;
    ga_memory_free(p);
}

DEVICE_TEST(device_ptr_arrays)
{
    releases = 0;
    /* a (3, 5) float32 matrix in rows of 8 (a pitched allocation) */
    float *p = (float *)ga_memory_alloc(3 * 8 * sizeof(float));
    ga_array *m = ga_from_device_ptr(p, GA_FLOAT32, 2, (const int64_t[]){3, 5}, (const int64_t[]){32, 4}, -1,
                                     count_release, p);
    CHECK(m && ga_device_of(m) == 0 && ga_data(m) == p && !(ga_flags(m) & GA_C_CONTIGUOUS) &&
              !(ga_flags(m) & GA_OWNDATA) && (ga_flags(m) & GA_WRITEABLE),
          "pitched matrix: %s", ga_last_error_message());
    ga_array *r = ga_arange(0, 15, 1, GA_FLOAT32), *r35 = ga_reshape(r, GA_SHAPE(3, 5));
    CHECK_OK(ga_copyto(m, r35, GA_CASTING_NO));
    float rows[24] = {0};
    ga_array *whole = ga_from_device_ptr(p, GA_FLOAT32, 1, (const int64_t[]){24}, NULL, 0, NULL, NULL);
    CHECK(whole && ga_to_host(whole, rows, sizeof rows) == GA_OK && rows[8] == 5 && rows[20] == 14,
          "the rows landed at their pitch: %g %g", (double)rows[8], (double)rows[20]);
    ga_release(whole);
    CHECK(releases == 0, "no release callback for an array given none, the other array still alive");
    ga_array *col = ga_index(m, "::-1, 2");
    ga_release(m);
    float c[3] = {0};
    CHECK(col && ga_to_host(col, c, sizeof c) == GA_OK && c[0] == 12 && c[2] == 2, "a view outlives the array");
    CHECK(releases == 0, "the view holds the memory");
    ga_release(col);
    CHECK(releases == 1, "released once, with the last view (%d)", releases);
    /* errors: release not called, the memory still the caller's */
    float *q = (float *)ga_memory_alloc(64);
    float pageable[4];
    CHECK_ERROR(ga_from_device_ptr(pageable, GA_FLOAT32, GA_SHAPE(4), NULL, -1, count_release, q) == NULL, GA_ERROR_VALUE,
                "is not memory the CUDA driver knows");
    CHECK_ERROR(ga_from_device_ptr((char *)q + 2, GA_FLOAT32, GA_SHAPE(4), NULL, -1, count_release, q) == NULL,
                GA_ERROR_VALUE, "the address and the strides must be multiples of 4 bytes for float32");
    CHECK_ERROR(ga_from_device_ptr(q, GA_COMPLEX128, GA_SHAPE(2), (const int64_t[]){12}, -1, count_release, q) == NULL,
                GA_ERROR_VALUE, "multiples of 8 bytes for complex128");
    CHECK_ERROR(ga_from_device_ptr(q, GA_FLOAT32, GA_SHAPE(4), NULL, ga_device_count(), count_release, q) == NULL,
                GA_ERROR_DEVICE, "does not exist");
    CHECK_ERROR(ga_from_device_ptr(NULL, GA_FLOAT32, GA_SHAPE(4), NULL, -1, count_release, q) == NULL,
                GA_ERROR_NULL_INPUT, "ptr");
    CHECK(releases == 1, "no release on the failed calls (%d)", releases);
    /* no elements: no pointer needed, the callback still runs once */
    ga_array *e = ga_from_device_ptr(NULL, GA_FLOAT64, GA_SHAPE(0, 3), NULL, -1, count_release, q);
    CHECK(e && ga_size(e) == 0, "an empty array over no memory: %s", ga_last_error_message());
    ga_release(e);
    CHECK(releases == 2, "released once (%d)", releases);
    /* inside a scope: released with the scope */
    float *s = (float *)ga_memory_alloc(16);
    ga_scope_begin();
    CHECK(ga_from_device_ptr(s, GA_INT32, GA_SHAPE(4), NULL, -1, count_release, s) != NULL, "in a scope");
    ga_scope_end();
    CHECK(releases == 3, "released with the scope (%d)", releases);
    ga_release(r35), ga_release(r);
    ga_clear_error();
}
