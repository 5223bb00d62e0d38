/* kernels/reduce.cu - family "reduce": reductions over any axes (and the
   families "extrema" and "logic", kernels/extrema.cu and logic.cu: the
   same kernels for min / max and argmin / argmax, and for count_nonzero,
   all and any, apart so that the three compile side by side).

   One pass of a reduction turns `rows` outputs, each the reduction of
   `length` elements, into results (the final pass) or partial states (a
   split pass, reduced again by a combine pass). The host collapses the
   array's dims into kept dims and reduced dims (ga__reduce_args) and picks
   the kernel by layout:

     ga_<family>_<op>_<in>_inner(ga__reduce_args a)
         the fastest-varying dim is reduced. `group` threads reduce a row:
         1 (rows of up to 16 elements: a thread per row; rows of at most
         64 contiguous bytes are staged through shared memory in tiles,
         GA__RF_TILES), 2
         to 32 (a warp or part of one per row; parts only for rows along
         one dim, GA__RF_ROWS, when they are many) or
         256 (a block per work item of `chunk` elements; rows longer than
         a chunk are split over several work items, whose partial states
         a combine pass reduces). A full reduction is the case rows == 1.
         Rows contiguous in memory are read with 16-byte vectors; other
         layouts (several reduced dims, any strides: the general strided
         case) index each element through the reduced dims.
     ga_<family>_<op>_<in>_outer(ga__reduce_args a)
         the fastest-varying dim is kept: threads run across it (`group`
         threads per block row, `vec` columns each, 16-byte vectors when
         aligned) and the rest of the block across the reduced elements,
         which are split into work items of `chunk` elements when there are
         few outputs; a combine pass reduces the partials.
     ga_<family>_<op>_<in>_packed(ga__reduce_args a)
         rows of 2 or 4 values read as stored that fill 16-byte vectors
         (GA__RF_PACKED; <in> float32, float64, complex64): an elementwise
         grid reduces the rows in each loaded vector.

   Determinism: the order in which a result's elements are combined depends
   on the shape and the alignment of the data only (the block size and the
   chunk sizes are fixed by the shape), never on the grid size or the GPU;
   no floating-point atomics. The only atomic is an integer OR into the
   warning word (`flag`).

   <op>: sum, prod, minmax (args.flags: GA__RF_MAX, GA__RF_NAN), arg (argmin
   / argmax with the first index on ties; NaN wins unless GA__RF_NAN skips
   it), argcombine (arg's partial states), sumsq (sum of |x - center|^2, the
   variance's second pass), count (nonzero, or not NaN), logic (all, any),
   prodcombine (the partial states of complex prod, which keeps NumPy's
   order at the last two elements: see ga_op_prod), minmaxcombine (those of
   complex min / max: a value and its index).
   <in>: the elements read: float32, float64, complex64, complex128 as
   stored (16-byte vectors); to_float32 (float16, bfloat16), to_float64
   (bool, integers, 16-bit floats, float32), to_int64 / to_uint64 (bool and
   integers, sign- or zero-extended), any (every dtype, as nonzero / not
   NaN) converted as they are loaded (args.in_dtype: a switch per element,
   the compact path). float16 and bfloat16 accumulate in float32, integer
   sums and products in 64-bit two's complement (the low bits are the same
   for every narrower integer dtype).

   Also the Gram matrix of cov (ga_reduce_gram_<float64|complex128>) and
   the normalisation of corrcoef (ga_reduce_corr_<float64|complex128>).

   The ops, loads and kernel bodies are in reduce.cuh (users' reduction
   kernels instantiate them too: gpuarr_user.cuh); this file instantiates
   gpuarr's own of its family (GA__REDUCE_OP_LIST's rows that name it). */

#define GA_FAMILY reduce
#define GA__IN_FAMILY_reduce(...) __VA_ARGS__ /* this family's rows of the list */
#include "reduce.cuh"

GA_DEFINE_FATBIN_VERSION

/* The warnings of the reductions (GA_WARNING_* bits), or'ed in by the
   final passes of the three families (the host passes its address); read and
   cleared by ga_reduce_warnings. */
extern "C" __device__ unsigned int ga_reduce_warning_word = 0;

GA__REDUCE_OWN_KERNELS

/* ======================================================================== */
/* cov and corrcoef                                                          */
/* ======================================================================== */

namespace {

/* a * conj(b) */
template <class V> GA_DEV V ga_mul_conj(V a, V b)
{
    if constexpr (ga_num<V>::is_complex) return ga_cmul(a, ga_cconj(b));
    else return a * b;
}
template <class V> GA_DEV V ga_scale(V a, double w)
{
    if constexpr (ga_num<V>::is_complex) {
        a.re *= w;
        a.im *= w;
        return a;
    } else {
        return a * w;
    }
}

/* partials[(i * nv + j) * nchunks + c] = sum over the chunk's k of
   x[i, k] * conj(x[j, k] * w[k]) (NumPy's dot(X, (X * w).T.conj())). */
template <class V> GA_DEV void ga_gram(const ga__gram_args &g)
{
    __shared__ V partial[GA_REDUCE_BLOCK / 32];
    const ga_op_sum<V> op;
    const V *x = (const V *)g.x;
    const double *wt = (const double *)g.w;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t items = g.nv * g.nv * g.nchunks;
    for (int64_t it = blockIdx.x; it < items; it += gridDim.x) {
        const int64_t pair = it / g.nchunks, c = it - pair * g.nchunks, i = pair / g.nv, j = pair - i * g.nv;
        const int64_t lo = c * g.chunk, hi = lo + g.chunk < g.nobs ? lo + g.chunk : g.nobs;
        V s = op.identity();
        for (int64_t k = lo + threadIdx.x; k < hi; k += GA_REDUCE_BLOCK) {
            V xj = x[j * g.nobs + k];
            if (wt) xj = ga_scale(xj, wt[k]);
            s = ga_value_add(s, ga_mul_conj(x[i * g.nobs + k], xj));
        }
        s = ga_warp_combine(op, s, 32);
        if (lane == 0) partial[warp] = s;
        __syncthreads();
        if (warp == 0) {
            s = lane < GA_REDUCE_BLOCK / 32 ? partial[lane] : op.identity();
            s = ga_warp_combine(op, s, GA_REDUCE_BLOCK / 32);
            if (lane == 0) ((V *)g.out)[it] = s;
        }
        __syncthreads();
    }
}

GA_DEV double ga_clip_unit(double v) { return v < -1.0 ? -1.0 : v > 1.0 ? 1.0 : v; } /* NaN stays */

/* corrcoef from the covariance c (nv x nv): (c / s_i) / s_j with s the
   square roots of the diagonal's real parts, each part clipped to [-1, 1];
   selfdiv: c / c (a single variable). Complex division as NumPy's
   (Smith's formula: ga_cdiv, and ga_cdiv_real by a real). */
template <class V> GA_DEV void ga_corr(V *out, const V *c, int64_t nv, int32_t selfdiv)
{
    GA_GRID_STRIDE_LOOP(e, nv * nv)
    {
        const int64_t i = e / nv, j = e - i * nv;
        V v = c[e];
        if constexpr (ga_num<V>::is_complex) {
            if (selfdiv) {
                out[e] = ga_cdiv(v, v);
                continue;
            }
            v = ga_cdiv_real(v, sqrt(c[i * nv + i].re));
            v = ga_cdiv_real(v, sqrt(c[j * nv + j].re));
            v.re = ga_clip_unit(v.re);
            v.im = ga_clip_unit(v.im);
        } else {
            if (selfdiv) {
                out[e] = v / v;
                continue;
            }
            v = v / sqrt(c[i * nv + i]);
            v = v / sqrt(c[j * nv + j]);
            v = ga_clip_unit(v);
        }
        out[e] = v;
    }
}

} /* namespace */

extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK) ga_reduce_gram_float64(const __grid_constant__ ga__gram_args g)
{
    ga_gram<double>(g);
}
extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK) ga_reduce_gram_complex128(const __grid_constant__ ga__gram_args g)
{
    ga_gram<c128>(g);
}
extern "C" __global__ void ga_reduce_corr_float64(double *out, const double *c, int64_t nv, int32_t selfdiv)
{
    ga_corr<double>(out, c, nv, selfdiv);
}
extern "C" __global__ void ga_reduce_corr_complex128(c128 *out, const c128 *c, int64_t nv, int32_t selfdiv)
{
    ga_corr<c128>(out, c, nv, selfdiv);
}
