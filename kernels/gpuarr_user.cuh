/* kernels/gpuarr_user.cuh - user kernels, compiled offline: include it in
   your own .cu file and build that file with gpuarr's build rule
   (gpuarr.mk) into <name>.fatbin; load it with ga_module_load and call its
   kernels from C (gpuarr.h, section >>kernel, has the whole story).

   1. Elementwise kernels (CuPy's ElementwiseKernel), one line each:

        GA_ELEMENTWISE(squared_diff, GA_LOOPS_FLOAT, (T x, T y), (T &z),
                       z = (x - y) * (x - y);)

      name; the dtypes the placeholder T is instantiated over (one of
      gpuarr's lists GA_LOOPS_ALL, _NUMERIC, _REAL, _INT, _FLOAT, _INEXACT,
      ... or your own list in their form: #define MY(Y, A) Y(A, float32,
      FLOAT32) Y(A, float64, FLOAT64)); the inputs; the outputs, written
      as references (they are assigned); the body, C++ statements. A
      parameter's type is the placeholder T or a dtype's name (bool, int8
      ... uint64, float16, bfloat16, float32, float64, complex64,
      complex128; or float, double, int32_t, ...), which in the body is the
      value type: bool for bool, __half and __nv_bfloat16 for the 16-bit
      floats (their arithmetic rounds each step, as NumPy's and CuPy's),
      thrust::complex<float / double> for the complex dtypes, the C type
      otherwise. `i` (the element's flat C-order index over the broadcast
      shape, int64_t) and `n` (the number of elements) are in scope, as in
      CuPy. Its loops are gpuarr's ufunc loops (the same contiguous vector
      loop and strided loop), of at most 3 inputs, 2 outputs and 4
      operands: where a kernel has more (up to 8 operands in all, raw
      ones too; at most 4 past the loop's four, raw ones among them), the
      loop takes its first 3 inputs and its first output, and the others
      are read and written element by element through views of the loop's
      shape (broadcast inputs, weak scalars, outputs given or made), a
      strided access each, so the loop's own operands are the fast ones.

      Several placeholders (CuPy's `(T x, U k) -> (T y)`, 1 to 4 of any
      names), over the tuples of dtypes a list names, one dtype per
      placeholder in their order:

        #define SCALE_PAIRS(Y, A) Y(A, float32, int32) Y(A, float64, int64)
        GA_ELEMENTWISE_TYPES(scale_by, (T, U), SCALE_PAIRS, (T x, U k),
                             (T &y), y = x * (T)k;)

      Each tuple is two kernels; a kernel is built for at most 64 tuples.
      The list names the tuples rather than a list per placeholder taken
      as a cross product: the combinations a kernel means are usually few
      (an index dtype with each float, a mask with each value dtype), and a
      cross product of gpuarr's lists (15 x 15 dtypes: 450 kernels) would
      be the module's whole build time for combinations no caller uses. A
      call takes the first tuple that holds the dtypes the arrays bind.

      Raw inputs (CuPy's `raw T x`, written raw<T> x: C++ has no such
      declarator): the whole array, not broadcast and not part of the
      loop's shape, given to the body as a view it indexes freely: x[k]
      (flat C-order index over x's own shape), x(i0, i1, ...) (an index per
      dim), x.size(), x.ndim(), x.shape(d). E.g.

        GA_ELEMENTWISE(reverse, GA_LOOPS_ALL, (raw<T> x), (T &y),
                       y = x[n - 1 - i];)

      A raw array binds its placeholder as any array; a scalar is refused.
      The loop's size is the broadcast shape of the other arrays and the
      given outputs that are not raw; where there is none (every input raw
      or a scalar) those outputs must be given (CuPy's "Loop size is
      Undecided"; CuPy's size= is not offered).

      Raw outputs (CuPy's `raw T y` among the outputs): the body writes
      the array where it likes, through the same view (y[k] = ...):

        GA_ELEMENTWISE(scatter, GA_LOOPS_ALL, (T x, int64 idx), (raw<T> y),
                       y[idx] = x;)

      A given raw output may have any shape (it is not broadcast; its
      elements the body does not write keep their values); one not given
      is made with the loop's shape, C-ordered, its elements as the body
      leaves them. Where every output is raw the loops store one byte an
      element to a scratch array of their own. Up to 4 raw parameters,
      inputs and outputs, besides the loop's operands.

   2. Reductions (CuPy's ReductionKernel), and fusion: elementwise steps
      with one final reduction, in one kernel:

        GA_REDUCTION(sumsq_diff, GA_LOOPS_FLOAT, (T x, T y), (T &z), float64,
                     (double)(x - y) * (double)(x - y), a + b, z = (T)a, 0)

      name, dtypes, 1 to 3 inputs, one output (a reference), the
      accumulator's type (T or a dtype's name), the map expression (of the
      inputs), the reduce expression (of `a` and `b`), the post-map
      statement (assigns the output from the result `a`), the identity. An
      expression with a comma is parenthesised: (a > b ? a : b) needs
      none, (max(a, b)) does. The kernels are gpuarr's own reduction
      kernels (reduce.cuh) over this op, planned by gpuarr's host planner.
      Inputs 1 and 2 may be given weak C scalars (a threshold, a weight),
      converted to their parameters' dtypes. In the map expression, `i` is
      the element's flat C-order index in the input (broadcast to the
      inputs' shape, before any axis is reduced), `n` the input's size,
      `_in_ind` both in CuPy's spelling (_in_ind.get(), _in_ind.size()).
      A map that reads `i` or `_in_ind` (the header tries the expression
      with them as a type no expression can use; the host reads its text)
      has its inputs copied to C order first where they are not, and
      loads one element at a time (no 16-byte vectors). Otherwise the
      inputs' contiguous rows are read in 16-byte vectors side by side
      where the arrays are in phase (the same number of elements past a
      vector boundary: views offset alike, or not at all). Several
      placeholders: GA_REDUCTION_TYPES(name, (T, W), tuples, ...), as
      GA_ELEMENTWISE_TYPES.

   3. Raw kernels (CuPy's RawKernel): any extern "C" __global__ function.
      A gpuarr array passed with ga_arg_view arrives as a ga_view (data,
      size, ndim, dtype, shape, strides in bytes: CuPy's CArray); read it
      with ga_view_at<T>(v, i) (flat C-order index) or ga_view_item<T>(v,
      idx) (an index per dim). ga_arg_pointer passes the data pointer.

   The module carries gpuarr's version stamp (ga_fatbin_version) and, per
   elementwise or reduction kernel, its signature (a string
   ga_user_sig_<name>: the placeholders, the parameters, the tuples, a
   reduction's accumulator type and map expression, which the host parses
   once when the kernel is looked up); its kernels are
   ga_user_<name>_<dtype>[_<dtype>...]_contig and _strided (elementwise),
   _inner, _outer, _combine_inner and _combine_outer (reductions), a dtype
   per placeholder. */

#ifndef GA_KERNELS_GPUARR_USER_CUH
#define GA_KERNELS_GPUARR_USER_CUH

/* the ufunc loops' tuning (kernels/arith.cu's: cheap bodies) */
#ifndef GA_CONTIG_UNROLL
#define GA_CONTIG_UNROLL 4
#endif
#ifndef GA_STRIDED_UNROLL
#define GA_STRIDED_UNROLL 4
#endif
#ifndef GA_COSTLY_COMPLEX
#define GA_COSTLY_COMPLEX 0
#endif
#include "ufunc.cuh"
#include "reduce.cuh"
#include <type_traits>
#include <utility>

GA_DEFINE_FATBIN_VERSION

/* ======================================================================== */
/* Value types: what a body sees of each storage type, and back             */
/* ======================================================================== */
namespace ga_user {
template <class S> struct value_of { typedef S type; };
template <> struct value_of<ga_bool_t> { typedef bool type; };
template <> struct value_of<ga_complex64_t> { typedef thrust::complex<float> type; };
template <> struct value_of<ga_complex128_t> { typedef thrust::complex<double> type; };

template <class V> struct storage_of { typedef V type; };
template <> struct storage_of<bool> { typedef ga_bool_t type; };
template <> struct storage_of<thrust::complex<float>> { typedef ga_complex64_t type; };
template <> struct storage_of<thrust::complex<double>> { typedef ga_complex128_t type; };

/* a loaded input (storage, or C++ bool: the loops' ga_arg) as its value */
template <class X> GA_DEV X to_value(X x) { return x; }
GA_DEV bool to_value(ga_bool_t b) { return b.v != 0; }
GA_DEV thrust::complex<float> to_value(ga_complex64_t z) { return thrust::complex<float>(z.re, z.im); }
GA_DEV thrust::complex<double> to_value(ga_complex128_t z) { return thrust::complex<double>(z.re, z.im); }

/* a value as its storage type */
template <class V> GA_DEV typename storage_of<V>::type to_storage(V v)
{
    typedef typename storage_of<V>::type S;
    if constexpr (std::is_same<V, bool>::value) {
        S s;
        s.v = (uint8_t)v;
        return s;
    } else if constexpr (std::is_same<S, ga_complex64_t>::value || std::is_same<S, ga_complex128_t>::value) {
        S s;
        s.re = v.real();
        s.im = v.imag();
        return s;
    } else {
        return v;
    }
}

/* The parameter types of a declaration `void(A...)`: count and the k-th
   (void past the end). */
template <int k, class... A> struct nth { typedef void type; };
template <class A0, class... A> struct nth<0, A0, A...> { typedef A0 type; };
template <int k, class A0, class... A> struct nth<k, A0, A...> { typedef typename nth<k - 1, A...>::type type; };
template <class F> struct params;
template <class... A> struct params<void(A...)> {
    static constexpr int count = sizeof...(A);
    template <int k> using value = std::remove_cv_t<std::remove_reference_t<typename nth<k, A...>::type>>;
};
/* whether every parameter of F is a reference to a non-const value (outputs) */
template <class F> struct all_refs;
template <class... A> struct all_refs<void(A...)> {
    static constexpr bool value =
        (true && ... && (std::is_lvalue_reference<A>::value && !std::is_const<std::remove_reference_t<A>>::value));
};
/* the storage type of parameter k of F, or Pad past the end */
template <class F, int k, class Pad> struct storage_at {
    typedef typename params<F>::template value<k> V;
    typedef std::conditional_t<std::is_void<V>::value, Pad, typename storage_of<std::conditional_t<std::is_void<V>::value, int, V>>::type> type;
};

/* The ufunc signature (kernels/ufunc.cuh's sig<L>) of inputs In and
   outputs Out (declarations void(A...)) for loop storage type L. */
template <class In, class Out, class L> struct sig {
    typedef typename storage_at<In, 0, L>::type in0;
    typedef typename storage_at<In, 1, L>::type in1;
    typedef typename storage_at<In, 2, L>::type in2;
    typedef typename storage_at<Out, 0, L>::type out0;
    typedef typename storage_at<Out, 1, L>::type out1;
};

/* A `raw` parameter (CuPy's `raw T x`: written raw<T> x): the whole array,
   not broadcast, indexed freely by the body. x[k] is the element at flat
   C-order index k of x's own shape, x(i0, i1, ...) the element at that
   index per dim; x.size(), x.ndim(), x.shape(d). Elements are of value
   type V, as stored (complex as thrust::complex, bool as bool). */
template <class V> struct raw_view {
    const ga_view *v;
    GA_DEV V &operator[](int64_t k) const
    {
        int64_t off = 0;
        for (int d = v->ndim - 1; d > 0; --d) {
            const int64_t s = v->shape[d], q = k / s;
            off += (k - q * s) * v->strides[d];
            k = q;
        }
        if (v->ndim > 0) off += k * v->strides[0];
        return *(V *)((char *)v->data + off);
    }
    template <class... I> GA_DEV V &operator()(I... idx) const
    {
        const int64_t ix[] = {(int64_t)idx...};
        int64_t off = 0;
        for (int d = 0; d < (int)sizeof...(I); d++) off += ix[d] * v->strides[d];
        return *(V *)((char *)v->data + off);
    }
    GA_DEV int64_t size() const { return v->size; }
    GA_DEV int ndim() const { return v->ndim; }
    GA_DEV int64_t shape(int d) const { return v->shape[d]; }
};
template <class X> struct is_raw { static constexpr bool value = false; };
template <class V> struct is_raw<raw_view<V>> { static constexpr bool value = true; };

/* Which parameters of F = void(A...) are raw, and the place of parameter
   k among the raw ones or among the others (the loop's operands). */
template <class F> struct raw_map;
template <class... A> struct raw_map<void(A...)> {
    __host__ __device__ static constexpr bool flag(int k)
    {
        constexpr bool f[] = {is_raw<std::remove_cv_t<std::remove_reference_t<A>>>::value..., false};
        return f[k];
    }
    __host__ __device__ static constexpr int before(int k, bool raw)
    {
        int c = 0;
        for (int j = 0; j < k; j++) c += flag(j) == raw;
        return c;
    }
    static constexpr int nraw = before((int)sizeof...(A), true);
};

/* The loop's inputs of F = void(A...): the parameters that are not raw,
   or, where all are, one of type D (a placeholder the host fills with a
   zero scalar and the body never sees). */
template <class F, class D, class Acc = void()> struct loop_params;
template <class D, class... Acc> struct loop_params<void(), D, void(Acc...)> {
    typedef std::conditional_t<sizeof...(Acc) == 0, void(D), void(Acc...)> type;
};
template <class A0, class... A, class D, class... Acc> struct loop_params<void(A0, A...), D, void(Acc...)> {
    typedef typename loop_params<void(A...), D,
                                 std::conditional_t<is_raw<std::remove_cv_t<std::remove_reference_t<A0>>>::value,
                                                    void(Acc...), void(Acc..., A0)>>::type type;
};

/* The loop's input values of one element. */
template <class A0, class A1, class A2> struct pack3 {
    A0 a0;
    A1 a1;
    A2 a2;
    template <int j> GA_DEV auto get() const
    {
        if constexpr (j == 0) return a0;
        else if constexpr (j == 1) return a1;
        else return a2;
    }
};

/* The first N parameters of F = void(A...), and those after them. */
template <int N, class F, class Acc = void()> struct take { typedef Acc type; };
template <int N, class A0, class... A, class... Acc> struct take<N, void(A0, A...), void(Acc...)> {
    typedef std::conditional_t<(N > 0), typename take<N - 1, void(A...), void(Acc..., A0)>::type, void(Acc...)> type;
};
template <int N, class F> struct drop { typedef F type; };
template <int N, class A0, class... A> struct drop<N, void(A0, A...)> {
    typedef std::conditional_t<(N > 0), typename drop<N - 1, void(A...)>::type, void(A0, A...)> type;
};

/* How a kernel of inputs In and outputs Out (declarations void(A...))
   spreads its parameters that are not raw (nri inputs, nro outputs) over
   the loop (the ufunc loops' operands: at most 3 inputs, 2 outputs, 4 in
   all) and the extra operands past it: the loop takes them all where
   they fit, else its first 3 inputs and first output, and the others are
   extra, read and written through views of the loop's shape (element i,
   the flat C-order index) in ga__user_raws after the raw parameters' (raw
   inputs, raw outputs, extra inputs, extra outputs). The host's
   ga__user_partition is the same. */
template <class In, class Out> struct partition {
    static constexpr int nraw_in = raw_map<In>::nraw, nraw_out = raw_map<Out>::nraw;
    static constexpr int nri = params<In>::count - nraw_in, nro = params<Out>::count - nraw_out;
    static constexpr bool fits = nri <= 3 && nro <= 2 && (nri > 1 ? nri : 1) + (nro > 1 ? nro : 1) <= 4;
    static constexpr int loop_in = fits ? nri : nri < 3 ? nri : 3; /* the loop's inputs of In */
    static constexpr int loop_out = fits ? nro : nro < 1 ? nro : 1;
    static constexpr int ext_in = nri - loop_in, ext_out = nro - loop_out;
    static constexpr int ext_in_base = nraw_in + nraw_out, ext_out_base = ext_in_base + ext_in;
};

/* Values of the types of F = void(A...), to be written by reference. */
template <class F> struct holder {
    template <int k> GA_DEV int &get() { static_assert(k < 0, "no such value"); return *(int *)nullptr; }
};
template <class A0, class... A> struct holder<void(A0, A...)> {
    std::remove_cv_t<std::remove_reference_t<A0>> v{};
    holder<void(A...)> rest;
    template <int k> GA_DEV auto &get()
    {
        if constexpr (k == 0) return v;
        else return rest.template get<k - 1>();
    }
};

/* Element i (the flat C-order index over the loop's shape) of an extra
   operand's view, as stored (S): a weak scalar is a view of no data, its
   value in the bytes of strides[]. */
template <class S> GA_DEV S view_load(const ga_view &v, int64_t i)
{
    if (!v.data) {
        S s;
        memcpy(&s, v.strides, sizeof s);
        return s;
    }
    if (v.ndim == 1) return *(const S *)((const char *)v.data + i * v.strides[0]);
    return raw_view<S>{&v}[i];
}
template <class S> GA_DEV void view_store(const ga_view &v, int64_t i, S s)
{
    if (v.ndim == 1) *(S *)((char *)v.data + i * v.strides[0]) = s;
    else raw_view<S>{&v}[i] = s;
}

/* Argument k of a body of inputs F: a raw view, the loop's value (the
   first NLOOP that are not raw), or an extra one's (views from EXT). */
template <class F, int K, int NLOOP, int EXT, class P>
GA_DEV auto arg_at(const P &vals, const ga__user_raws *raws, int64_t i)
{
    typedef typename params<F>::template value<K> V;
    constexpr int j = raw_map<F>::before(K, false);
    if constexpr (raw_map<F>::flag(K)) return V{&raws->v[raw_map<F>::before(K, true)]};
    else if constexpr (j < NLOOP) return to_value(vals.template get<j>());
    else return to_value(view_load<typename storage_of<V>::type>(raws->v[EXT + j - NLOOP], i));
}

/* Output k of a body of outputs F: a raw view (after the nraw_in raw
   inputs' views), the loop's output o0 / o1 (the first NLOOP that are not
   raw), or an extra one's value in ext (a reference each). */
template <class F, int K, int NRAW_IN, int NLOOP, class O0, class O1, class H>
GA_DEV decltype(auto) out_at(const ga__user_raws *raws, O0 &o0, O1 &o1, H &ext)
{
    typedef typename params<F>::template value<K> V;
    constexpr int j = raw_map<F>::before(K, false);
    if constexpr (raw_map<F>::flag(K)) return V{&raws->v[NRAW_IN + raw_map<F>::before(K, true)]};
    else if constexpr (j < NLOOP && j == 0) return (o0);
    else if constexpr (j < NLOOP) return (o1);
    else return (ext.template get<j - NLOOP>());
}

/* The loops' compute type of an output (ga_compute) from its value. */
template <class V> GA_DEV auto to_compute(V v) { return ga_up(to_storage(v)); }
} /* namespace ga_user */

/* The dtypes' names as types, for signatures: each is its value type. */
namespace ga_user_types {
typedef int8_t int8;
typedef int16_t int16;
typedef int32_t int32;
typedef int64_t int64;
typedef uint8_t uint8;
typedef uint16_t uint16;
typedef uint32_t uint32;
typedef uint64_t uint64;
typedef __half float16;
typedef __nv_bfloat16 bfloat16;
typedef float float32;
typedef double float64;
typedef thrust::complex<float> complex64;
typedef thrust::complex<double> complex128;
template <class V> using raw = ga_user::raw_view<V>; /* CuPy's `raw T x`: raw<T> x */
} /* namespace ga_user_types */

/* ======================================================================== */
/* GA_ELEMENTWISE                                                            */
/* ======================================================================== */
#define GA__USER_STRIP(...) __VA_ARGS__
#define GA__USER_LOOP_NAME(A, name, E) #name "|"
#define GA__USER_TUPLE_NAME(A, ...) #__VA_ARGS__ "|"
/* Lists of 1 to 4 items: their count; `class a, class b`; the storage
   types ga_t_a, ga_t_b; the symbol ga_user_<name>_a_b_<variant>. */
#define GA__USER_CAT(a, b) GA__USER_CAT_(a, b)
#define GA__USER_CAT_(a, b) a##b
#define GA__USER_NARGS(...) GA__USER_NARGS_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define GA__USER_NARGS_(a, b, c, d, N, ...) N
#define GA__USER_CLASSES(...) GA__USER_CAT(GA__USER_CLASSES_, GA__USER_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define GA__USER_CLASSES_1(a) class a
#define GA__USER_CLASSES_2(a, b) class a, class b
#define GA__USER_CLASSES_3(a, b, c) class a, class b, class c
#define GA__USER_CLASSES_4(a, b, c, d) class a, class b, class c, class d
#define GA__USER_STORAGE(...) GA__USER_CAT(GA__USER_STORAGE_, GA__USER_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define GA__USER_STORAGE_1(a) ga_t_##a
#define GA__USER_STORAGE_2(a, b) ga_t_##a, ga_t_##b
#define GA__USER_STORAGE_3(a, b, c) ga_t_##a, ga_t_##b, ga_t_##c
#define GA__USER_STORAGE_4(a, b, c, d) ga_t_##a, ga_t_##b, ga_t_##c, ga_t_##d
#define GA__USER_SYM(name, v, ...) GA__USER_CAT(GA__USER_SYM_, GA__USER_NARGS(__VA_ARGS__))(name, v, __VA_ARGS__)
#define GA__USER_SYM_1(name, v, a) ga_user_##name##_##a##_##v
#define GA__USER_SYM_2(name, v, a, b) ga_user_##name##_##a##_##b##_##v
#define GA__USER_SYM_3(name, v, a, b, c) ga_user_##name##_##a##_##b##_##c##_##v
#define GA__USER_SYM_4(name, v, a, b, c, d) ga_user_##name##_##a##_##b##_##c##_##d##_##v

/* The op of kernel `name` for the storage types L... of its placeholders
   (one type per placeholder, in their order): kernels/ufunc.cuh's
   interface (nin, nout, sig, widen16), indexed (called op(i, args...)),
   n from the loop's param[0] (its bits, set by the host). L0, the first
   placeholder's type, is the loops' L (their padding type). */
#define GA__USER_OP(name)                                                                                 \
    template <class... L> struct ga_user_op_##name {                                                      \
        typedef typename ga_user::nth<0, L...>::type L0;                                                  \
        typedef decltype(ga_user_bodies::ga_user_ins_##name<typename ga_user::value_of<L>::type...>) In;  \
        typedef decltype(ga_user_bodies::ga_user_outs_##name<typename ga_user::value_of<L>::type...>) Out; \
        typedef ga_user::partition<In, Out> Part;                                                         \
        typedef typename ga_user::loop_params<In, typename ga_user::value_of<L0>::type>::type AllIn;      \
        typedef typename ga_user::loop_params<Out, bool>::type AllOut; /* all raw: a bool nobody reads */  \
        typedef typename ga_user::take<(Part::loop_in > 1 ? Part::loop_in : 1), AllIn>::type LoopIn;       \
        typedef typename ga_user::take<(Part::loop_out > 1 ? Part::loop_out : 1), AllOut>::type LoopOut;   \
        typedef std::conditional_t<(Part::nro > 0), typename ga_user::drop<Part::loop_out, AllOut>::type, void()> \
            ExtOut;                                                                                        \
        static constexpr int nin = ga_user::params<LoopIn>::count, nout = ga_user::params<LoopOut>::count; \
        static constexpr int nraw_in = Part::nraw_in, nraw_out = Part::nraw_out;                          \
        static_assert(ga_user::params<In>::count >= 1 && ga_user::params<Out>::count >= 1 &&               \
                          nraw_in + nraw_out + Part::ext_in + Part::ext_out <= GA__USER_MAX_RAW,           \
                      "GA_ELEMENTWISE " #name ": 1 or more inputs and outputs, at most 8 in all (4 for the " \
                      "loop, 4 raw or extra ones)");                                                     \
        static_assert(ga_user::all_refs<typename ga_user::loop_params<Out, int &>::type>::value,           \
                      "GA_ELEMENTWISE " #name ": outputs are written through references: (T &z), or raw: "  \
                      "(raw<T> z)");                                                                       \
        static constexpr bool widen16 = false, indexed = true;                                            \
        template <class L2> using sig = ga_user::sig<LoopIn, LoopOut, L0>;                                \
        typedef typename ga_user::params<LoopOut>::template value<0> V0;                                  \
        typedef std::conditional_t<(nout > 1), typename ga_user::params<LoopOut>::template value<1>, int> V1; \
        int64_t n;                                                                                         \
        const ga__user_raws *raws;                                                                        \
        GA_DEV explicit ga_user_op_##name(const double *p, const ga__user_raws *r = nullptr) : raws(r)    \
        {                                                                                                  \
            memcpy(&n, p, sizeof n);                                                                       \
        }                                                                                                  \
        template <int... E> GA_DEV void store(ga_user::holder<ExtOut> &ext, int64_t i,                    \
                                              std::integer_sequence<int, E...>) const                     \
        {                                                                                                  \
            (ga_user::view_store(raws->v[Part::ext_out_base + E], i, ga_user::to_storage(ext.template get<E>())), \
             ...);                                                                                         \
        }                                                                                                  \
        template <int... K, int... KO, class P>                                                            \
        GA_DEV void call(std::integer_sequence<int, K...>, std::integer_sequence<int, KO...>, int64_t i,   \
                         const P &vals, V0 &o0, V1 &o1) const                                              \
        {                                                                                                  \
            ga_user::holder<ExtOut> ext;                                                                   \
            ga_user_bodies::ga_user_body_##name<typename ga_user::value_of<L>::type...>(                   \
                i, n, ga_user::arg_at<In, K, Part::loop_in, Part::ext_in_base>(vals, raws, i)...,          \
                ga_user::out_at<Out, KO, nraw_in, Part::loop_out>(raws, o0, o1, ext)...);                  \
            store(ext, i, std::make_integer_sequence<int, Part::ext_out>());                               \
        }                                                                                                  \
        template <class P> GA_DEV void body(int64_t i, const P &vals, V0 &o0, V1 &o1) const               \
        {                                                                                                  \
            call(std::make_integer_sequence<int, ga_user::params<In>::count>(),                            \
                 std::make_integer_sequence<int, ga_user::params<Out>::count>(), i, vals, o0, o1);         \
        }                                                                                                  \
        template <class A0> GA_DEV auto operator()(int64_t i, A0 a0) const                                \
        {                                                                                                  \
            V0 o0{};                                                                                       \
            V1 o1{};                                                                                       \
            body(i, ga_user::pack3<A0, int, int>{a0, 0, 0}, o0, o1);                                       \
            return ga_user::to_storage(o0);                                                                \
        }                                                                                                  \
        template <class A0, class A1> GA_DEV auto operator()(int64_t i, A0 a0, A1 a1) const               \
        {                                                                                                  \
            V0 o0{};                                                                                       \
            V1 o1{};                                                                                       \
            body(i, ga_user::pack3<A0, A1, int>{a0, a1, 0}, o0, o1);                                       \
            return ga_user::to_storage(o0);                                                                \
        }                                                                                                  \
        template <class A0, class A1, class A2> GA_DEV auto operator()(int64_t i, A0 &&a0, A1 &&a1, A2 &&a2) const \
        {                                                                                                  \
            V0 o0{};                                                                                       \
            V1 o1{};                                                                                       \
            if constexpr (nout == 2) { /* one input, two outputs */                                       \
                body(i, ga_user::pack3<std::remove_cv_t<std::remove_reference_t<A0>>, int, int>{a0, 0, 0}, o0, o1); \
                a1 = ga_user::to_compute(o0);                                                              \
                a2 = ga_user::to_compute(o1);                                                              \
            } else {                                                                                       \
                body(i,                                                                                    \
                     ga_user::pack3<std::remove_cv_t<std::remove_reference_t<A0>>,                        \
                                    std::remove_cv_t<std::remove_reference_t<A1>>,                        \
                                    std::remove_cv_t<std::remove_reference_t<A2>>>{a0, a1, a2},           \
                     o0, o1);                                                                              \
                return ga_user::to_storage(o0);                                                            \
            }                                                                                              \
        }                                                                                                  \
        template <class A0, class A1, class R0, class R1>                                                  \
        GA_DEV void operator()(int64_t i, A0 a0, A1 a1, R0 &r0, R1 &r1) const                              \
        {                                                                                                  \
            V0 o0{};                                                                                       \
            V1 o1{};                                                                                       \
            body(i, ga_user::pack3<A0, A1, int>{a0, a1, 0}, o0, o1);                                       \
            r0 = ga_user::to_compute(o0);                                                                  \
            r1 = ga_user::to_compute(o1);                                                                  \
        }                                                                                                  \
    };

/* The two kernels of kernel `name` for one tuple of dtype names (one per
   placeholder): ga_user_<name>_<dtype>[_<dtype>...]_contig and _strided. */
#define GA__USER_TKERNELS(name, ...)                                                                      \
    extern "C" __global__ void GA__USER_SYM(name, contig, __VA_ARGS__)(const __grid_constant__ ga__ufunc_args a, \
                                                                       const __grid_constant__ ga__user_raws r) \
    {                                                                                                      \
        typedef ga_user_op_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                      \
        typedef typename Op::L0 L0;                                                                       \
        typedef typename Op::template sig<L0> S;                                                          \
        ga_ufunc_contig_with<Op, L0, typename S::in0, typename S::in1>(Op(a.param, &r), a);               \
    }                                                                                                      \
    extern "C" __global__ void GA__USER_SYM(name, strided, __VA_ARGS__)(const __grid_constant__ ga__ufunc_args a, \
                                                                        const __grid_constant__ ga__ufunc_layout l, \
                                                                        const __grid_constant__ ga__user_raws r) \
    {                                                                                                      \
        typedef ga_user_op_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                      \
        ga_ufunc_strided_body<Op, typename Op::template sig<typename Op::L0>>(Op(a.param, &r), a, l);    \
    }
/* A one-placeholder list's entry Y(A, dtype, DTYPE) as a tuple of one. */
#define GA__USER_KERNELS1(name, loop, LOOP) GA__USER_TKERNELS(name, loop)

/* The body and the signature of elementwise kernel `name`, placeholders
   `phs` ((T) or (T, U, ...)), instantiated by tuples(Y_KERNELS, name),
   listed by tuples(Y_NAME, ~). */
#define GA__USER_ELEMENTWISE(name, phs, tuples, Y_NAME, Y_KERNELS, ins, outs, ...)                        \
    namespace ga_user_bodies {                                                                            \
    using namespace ga_user_types;                                                                        \
    template <GA__USER_CLASSES phs> __device__ void ga_user_ins_##name ins;                               \
    template <GA__USER_CLASSES phs> __device__ void ga_user_outs_##name outs;                             \
    template <GA__USER_CLASSES phs>                                                                       \
    GA_DEV void ga_user_body_##name(int64_t i, int64_t n, GA__USER_STRIP ins, GA__USER_STRIP outs)        \
    {                                                                                                     \
        (void)i, (void)n;                                                                                 \
        __VA_ARGS__                                                                                       \
    }                                                                                                     \
    }                                                                                                     \
    GA__USER_OP(name)                                                                                     \
    extern "C" __device__ const char ga_user_sig_##name[] =                                               \
        "gpuarr elementwise 2;" #name ";" #phs ";" #ins ";" #outs ";" tuples(Y_NAME, ~) ";";               \
    tuples(Y_KERNELS, name)

/* GA_ELEMENTWISE(name, loops, (inputs), (outputs), body...): see above. */
#define GA_ELEMENTWISE(name, loops, ins, outs, ...)                                                       \
    GA__USER_ELEMENTWISE(name, (T), loops, GA__USER_LOOP_NAME, GA__USER_KERNELS1, ins, outs, __VA_ARGS__)

/* GA_ELEMENTWISE_TYPES(name, (T, U), tuples, (inputs), (outputs), body...):
   several placeholders (1 to 4), instantiated for the tuples of dtypes
   the list names: #define PAIRS(Y, A) Y(A, float32, int32) Y(A, float64,
   int64). See above. */
#define GA_ELEMENTWISE_TYPES(name, phs, tuples, ins, outs, ...)                                           \
    GA__USER_ELEMENTWISE(name, phs, tuples, GA__USER_TUPLE_NAME, GA__USER_TKERNELS, ins, outs, __VA_ARGS__)

/* ======================================================================== */
/* GA_REDUCTION                                                              */
/* ======================================================================== */
namespace ga_user {
/* The inputs of one element, as stored, and its flat C-order index. */
template <class T0, class T1, class T2> struct tuple3 {
    T0 x0;
    T1 x1;
    T2 x2;
    int64_t i;
};

/* `_in_ind` in a map expression, as CuPy's: get() the element's index,
   size() the input's. */
struct in_ind {
    int64_t i, n;
    GA_DEV int64_t get() const { return i; }
    GA_DEV int64_t size() const { return n; }
};
/* What `i` and `_in_ind` are when the header asks whether a map
   expression reads them: nothing an expression can use. */
struct no_index {};

/* The loads of a reduction's first pass (kernels/reduce.cuh's load
   policies): input 0 at the address the kernel computes, inputs 1 and 2
   at the same element of args.center and args.count (the host lays every
   input out alike: the same element strides), or, where that is 0, the
   weak scalar args.user_scalar[k - 1]. IDX: the map reads the element's
   index, the element's place in input 0 (which the host makes C-ordered).
   One input and no index: 16-byte vectors too. */
template <class Op, class In>
GA_DEV typename Op::S range_vectors(const Op &op, const ga__reduce_args &a, const char *base, int64_t lo, int64_t hi,
                                    int t, int T);

template <int NIN, bool IDX, class T0, class T1, class T2> struct loads {
    typedef tuple3<T0, T1, T2> V;
    typedef T0 stored;
    typedef T0 t0;
    typedef T1 t1;
    typedef T2 t2;
    static constexpr int nin = NIN;
    static constexpr bool vector = NIN == 1 && !IDX;
    /* several inputs and no index: vectors of VW elements of each input
       (range_vectors below), VW * sizeof(Tk) bytes of input k, 16 of the
       widest */
    static constexpr int widest = (int)(sizeof(T0) > (NIN > 1 ? sizeof(T1) : 1)
                                            ? (sizeof(T0) > (NIN > 2 ? sizeof(T2) : 1) ? sizeof(T0) : sizeof(T2))
                                            : (sizeof(T1) > (NIN > 2 ? sizeof(T2) : 1) ? sizeof(T1) : sizeof(T2)));
    static constexpr int vw = widest <= 16 ? 16 / widest : 1;
    static constexpr bool own_range = NIN > 1 && !IDX && widest <= 16; /* reduce.cuh's hook */
    template <class Op>
    static GA_DEV typename Op::S range(const Op &op, const ga__reduce_args &a, const char *base, int64_t lo, int64_t hi,
                                       int t, int T)
    {
        return range_vectors<Op, loads>(op, a, base, lo, hi, t, T);
    }
    static GA_DEV V load(const char *p, const ga__reduce_args &a)
    {
        V v;
        v.x0 = ga_load<T0>(p);
        v.i = -1;
        if constexpr (NIN > 1 || IDX) {
            const int64_t e = (int64_t)(p - (const char *)a.in) / (int64_t)sizeof(T0);
            if constexpr (IDX) v.i = e;
            if constexpr (NIN > 1)
                v.x1 = a.center ? ga_load<T1>((const char *)a.center + e * (int64_t)sizeof(T1))
                                : ga_scalar_arg<T1>(a.user_scalar[0]);
            if constexpr (NIN > 2)
                v.x2 = a.count ? ga_load<T2>((const char *)a.count + e * (int64_t)sizeof(T2))
                               : ga_scalar_arg<T2>(a.user_scalar[1]);
        }
        return v;
    }
    static GA_DEV V convert(T0 x, const ga__reduce_args &)
    {
        V v;
        v.x0 = x;
        v.i = -1;
        return v;
    }
};

/* A thread's share of a row of a reduction of several inputs
   (ga_reduce_range's hook for these loads: the work units, groups, trees
   and stores are gpuarr's own ga_reduce_inner's), read as ga_reduce_range
   reads one input's, in 16-byte vectors, each input's side by side. The
   host sets GA__RF_USER_PHASE where the array inputs are in phase (each
   one's address of element 0 a multiple of its size and the same number
   of elements past a vector boundary of VW elements), so that a row's
   first aligned vector of input 0 is one of every input's. Elsewhere (out
   of phase, rows along strided or several dims, a thread per row)
   element by element. The order in which elements are combined depends
   on the shape and the alignment only. */
template <class Op, class In>
GA_DEV typename Op::S range_vectors(const Op &op, const ga__reduce_args &a, const char *base, int64_t lo, int64_t hi,
                                    int t, int T)
{
    typedef ga_accumulator<Op> R;
    typedef typename R::A A;
    typedef typename In::t0 T0;
    typedef typename In::t1 T1;
    typedef typename In::t2 T2;
    constexpr int VW = In::vw, NIN = In::nin, LF = GA_LOADS_IN_FLIGHT;
    constexpr int64_t sz0 = sizeof(T0), sz1 = sizeof(T1), sz2 = sizeof(T2);
    typedef typename ga_vec_of<VW * sizeof(T0)>::type V0;
    typedef typename ga_vec_of<(NIN > 1 ? VW * sizeof(T1) : 1)>::type V1;
    typedef typename ga_vec_of<(NIN > 2 ? VW * sizeof(T2) : 1)>::type V2;
    constexpr int NA = sizeof(A) <= 8 ? GA_LOADS_IN_FLIGHT : sizeof(A) <= 32 ? 2 : 1;
    A acc[NA];
#pragma unroll
    for (int u = 0; u < NA; u++) acc[u] = R::identity(op);
    if (!(a.flags & GA__RF_USER_PHASE) || T < 2 || a.red_ndim != 1 || a.red_in[0] != sz0)
        return ga_reduce_range_plain<Op, In>(op, a, base, lo, hi, t, T);
    const int32_t n = (int32_t)(hi - lo); /* ranges are chunks: below 2^31 */
    const int64_t io = (int64_t)(base - (const char *)a.in);
    const char *p0 = base + lo * sz0;
    const int64_t e0 = io / sz0 + lo; /* the range's first element, in every input */
    const int32_t mis = (int32_t)((VW * sz0 - (uintptr_t)p0 % (VW * sz0)) % (VW * sz0));
    if (mis % sz0 != 0) /* (byte strides that are not whole elements) */
        return ga_reduce_range_plain<Op, In>(op, a, base, lo, hi, t, T);
    const int32_t head = mis / (int32_t)sz0 < n ? mis / (int32_t)sz0 : n;
    for (int32_t k = t; k < head; k += T) R::add(op, acc[0], In::load(p0 + k * sz0, a), lo, k);
    const int32_t nv = (n - head) / VW;
    const bool c1 = NIN > 1 && a.center, c2 = NIN > 2 && a.count; /* arrays, else weak scalars */
    const T1 s1 = NIN > 1 ? ga_scalar_arg<T1>(a.user_scalar[0]) : T1();
    const T2 s2 = NIN > 2 ? ga_scalar_arg<T2>(a.user_scalar[1]) : T2();
    const V0 *v0 = (const V0 *)(p0 + head * sz0);
    const V1 *v1 = (const V1 *)(c1 ? (const char *)a.center + (e0 + head) * sz1 : nullptr);
    const V2 *v2 = (const V2 *)(c2 ? (const char *)a.count + (e0 + head) * sz2 : nullptr);
    /* vector j's VW elements into acc: element head + j * VW + q */
    auto add = [&](A &s, const V0 &r0, const V1 &r1, const V2 &r2, int32_t j) {
        T0 x0[VW];
        T1 x1[NIN > 1 ? VW : 1];
        T2 x2[NIN > 2 ? VW : 1];
        memcpy(x0, &r0, sizeof x0);
        if constexpr (NIN > 1) memcpy(x1, &r1, sizeof x1);
        if constexpr (NIN > 2) memcpy(x2, &r2, sizeof x2);
#pragma unroll
        for (int q = 0; q < VW; q++) {
            typename In::V x;
            x.x0 = x0[q];
            if constexpr (NIN > 1) x.x1 = c1 ? x1[q] : s1;
            if constexpr (NIN > 2) x.x2 = c2 ? x2[q] : s2;
            x.i = -1;
            R::add(op, s, x, lo, head + j * VW + q);
        }
    };
    int32_t j = t;
    for (; j + (LF - 1) * T < nv; j += LF * T) {
        V0 r0[LF];
        V1 r1[LF];
        V2 r2[LF];
#pragma unroll
        for (int u = 0; u < LF; u++) {
            r0[u] = v0[j + u * T];
            r1[u] = c1 ? v1[j + u * T] : V1();
            r2[u] = c2 ? v2[j + u * T] : V2();
        }
#pragma unroll
        for (int u = 0; u < LF; u++) add(acc[u % NA], r0[u], r1[u], r2[u], j + u * T);
    }
    for (; j < nv; j += T) add(acc[0], v0[j], c1 ? v1[j] : V1(), c2 ? v2[j] : V2(), j);
    for (int32_t k = head + nv * VW + t; k < n; k += T) R::add(op, acc[0], In::load(p0 + k * sz0, a), lo, k);
    A s = acc[0];
#pragma unroll
    for (int u = 1; u < NA; u++) s = R::combine(op, s, acc[u]);
    return R::finish(op, s, lo);
}

/* The loads of the combine passes: partial states as stored. */
template <class S> struct state_loads {
    typedef S V;
    typedef S stored;
    static constexpr bool vector = false;
    static GA_DEV V load(const char *p, const ga__reduce_args &) { return ga_load<S>(p); }
    static GA_DEV V convert(S x, const ga__reduce_args &) { return x; }
};
} /* namespace ga_user */

/* The op of reduction `name` for the storage types L... of its
   placeholders: kernels/reduce.cuh's interface (S the state, R the
   result, identity, accumulate, combine, result); the state is the
   accumulator's storage type. `indexed`: the map expression reads `i` or
   `_in_ind` (it does not compile with them as ga_user::no_index). */
#define GA__USER_ROP(name)                                                                                \
    template <class... L> struct ga_user_rop_##name {                                                     \
        typedef typename ga_user::nth<0, L...>::type L0;                                                  \
        typedef decltype(ga_user_bodies::ga_user_rins_##name<typename ga_user::value_of<L>::type...>) In; \
        typedef decltype(ga_user_bodies::ga_user_routs_##name<typename ga_user::value_of<L>::type...>) Out; \
        static constexpr int nin = ga_user::params<In>::count;                                            \
        static_assert(nin >= 1 && nin <= 3 && ga_user::params<Out>::count == 1,                           \
                      "GA_REDUCTION " #name ": 1 to 3 inputs, one output");                               \
        static_assert(ga_user::all_refs<Out>::value, "GA_REDUCTION " #name ": the output is a reference: (T &y)"); \
        template <class... A>                                                                              \
        static auto probe(void (*)(A...), int)                                                            \
            -> decltype(ga_user_bodies::ga_user_rprobe_##name<typename ga_user::value_of<L>::type...,      \
                                                              ga_user::no_index>(                          \
                            ga_user::no_index(), (int64_t)0, ga_user::no_index(), std::declval<A>()...),   \
                        std::false_type());                                                                \
        static std::true_type probe(...);                                                                  \
        static constexpr bool indexed = decltype(probe((In *)nullptr, 0))::value;                          \
        typedef ga_user_bodies::ga_user_racc_##name<typename ga_user::value_of<L>::type...> ACC;         \
        typedef typename ga_user::storage_of<ACC>::type S;                                                \
        typedef typename ga_user::params<Out>::template value<0> V0;                                      \
        typedef typename ga_user::storage_of<V0>::type R;                                                 \
        typedef ga_user::loads<nin, indexed, typename ga_user::storage_at<In, 0, L0>::type,               \
                               typename ga_user::storage_at<In, 1, L0>::type,                             \
                               typename ga_user::storage_at<In, 2, L0>::type> Loads;                      \
        static constexpr bool warns_all_nan = false;                                                      \
        int64_t n = 0;                                                                                    \
        GA_DEV ga_user_rop_##name() {}                                                                    \
        GA_DEV explicit ga_user_rop_##name(const ga__reduce_args &a) : n(a.user_size) {}                  \
        GA_DEV S identity() const                                                                         \
        {                                                                                                  \
            return ga_user::to_storage(ga_user_bodies::ga_user_ridentity_##name<typename ga_user::value_of<L>::type...>()); \
        }                                                                                                  \
        GA_DEV S empty() const { return identity(); }                                                     \
        GA_DEV S combine(S a, S b) const                                                                  \
        {                                                                                                  \
            return ga_user::to_storage(ga_user_bodies::ga_user_reduce_##name<typename ga_user::value_of<L>::type...>( \
                ga_user::to_value(a), ga_user::to_value(b)));                                              \
        }                                                                                                  \
        GA_DEV void accumulate(S &s, const typename Loads::V &x, int64_t) const                           \
        {                                                                                                  \
            const ga_user::in_ind ind = {x.i, n};                                                          \
            ACC m;                                                                                         \
            if constexpr (nin == 1)                                                                        \
                m = ga_user_bodies::ga_user_rmap_##name<typename ga_user::value_of<L>::type...>(            \
                    x.i, n, ind, ga_user::to_value(x.x0));                                                 \
            else if constexpr (nin == 2)                                                                   \
                m = ga_user_bodies::ga_user_rmap_##name<typename ga_user::value_of<L>::type...>(            \
                    x.i, n, ind, ga_user::to_value(x.x0), ga_user::to_value(x.x1));                        \
            else                                                                                           \
                m = ga_user_bodies::ga_user_rmap_##name<typename ga_user::value_of<L>::type...>(            \
                    x.i, n, ind, ga_user::to_value(x.x0), ga_user::to_value(x.x1), ga_user::to_value(x.x2)); \
            s = ga_user::to_storage(ga_user_bodies::ga_user_reduce_##name<typename ga_user::value_of<L>::type...>( \
                ga_user::to_value(s), m));                                                                 \
        }                                                                                                  \
        GA_DEV R result(S s) const                                                                        \
        {                                                                                                  \
            V0 y{};                                                                                        \
            ga_user_bodies::ga_user_rpost_##name<typename ga_user::value_of<L>::type...>(ga_user::to_value(s), y); \
            return ga_user::to_storage(y);                                                                 \
        }                                                                                                  \
    };

/* The four kernels of reduction `name` for one tuple of dtype names: the
   first pass and the combine passes, each with the inner and the outer
   layout. */
#define GA__USER_RTKERNELS(name, ...)                                                                     \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK)                                         \
        GA__USER_SYM(name, inner, __VA_ARGS__)(const __grid_constant__ ga__reduce_args a)                 \
    {                                                                                                      \
        typedef ga_user_rop_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                     \
        ga_reduce_inner<Op, typename Op::Loads>(a);                                                \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK)                                         \
        GA__USER_SYM(name, outer, __VA_ARGS__)(const __grid_constant__ ga__reduce_args a)                 \
    {                                                                                                      \
        typedef ga_user_rop_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                     \
        ga_reduce_outer<Op, typename Op::Loads>(a);                                                       \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK)                                         \
        GA__USER_SYM(name, combine_inner, __VA_ARGS__)(const __grid_constant__ ga__reduce_args a)         \
    {                                                                                                      \
        typedef ga_user_rop_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                     \
        ga_reduce_inner<ga_op_states<Op>, ga_user::state_loads<typename Op::S>>(a);                       \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK)                                         \
        GA__USER_SYM(name, combine_outer, __VA_ARGS__)(const __grid_constant__ ga__reduce_args a)         \
    {                                                                                                      \
        typedef ga_user_rop_##name<GA__USER_STORAGE(__VA_ARGS__)> Op;                                     \
        ga_reduce_outer<ga_op_states<Op>, ga_user::state_loads<typename Op::S>>(a);                       \
    }
#define GA__USER_RKERNELS1(name, loop, LOOP) GA__USER_RTKERNELS(name, loop)

/* The bodies and the signature of reduction `name` (see GA_REDUCTION):
   placeholders `phs`, instantiated by tuples(Y_KERNELS, name), listed by
   tuples(Y_NAME, ~). The map is declared twice: to be called (i, n and
   _in_ind in scope), and as a probe whose `i` and `_in_ind` no expression
   can use. */
#define GA__USER_REDUCTION(name, phs, tuples, Y_NAME, Y_KERNELS, ins, outs, reduce_type, map_expr, reduce_expr, \
                           post_map_expr, identity_expr)                                                  \
    namespace ga_user_bodies {                                                                            \
    using namespace ga_user_types;                                                                        \
    template <GA__USER_CLASSES phs> __device__ void ga_user_rins_##name ins;                              \
    template <GA__USER_CLASSES phs> __device__ void ga_user_routs_##name outs;                            \
    template <GA__USER_CLASSES phs> using ga_user_racc_##name = reduce_type;                              \
    template <GA__USER_CLASSES phs>                                                                       \
    GA_DEV ga_user_racc_##name<GA__USER_STRIP phs> ga_user_rmap_##name(int64_t i, int64_t n, ga_user::in_ind _in_ind, \
                                                                       GA__USER_STRIP ins)                \
    {                                                                                                     \
        (void)i, (void)n, (void)_in_ind;                                                                  \
        return (ga_user_racc_##name<GA__USER_STRIP phs>)(map_expr);                                       \
    }                                                                                                     \
    template <GA__USER_CLASSES phs, class GA_I> /* GA_I: ga_user::no_index (a dependent type) */        \
    GA_DEV auto ga_user_rprobe_##name(GA_I i, int64_t n, GA_I _in_ind, GA__USER_STRIP ins)                \
        -> decltype((ga_user_racc_##name<GA__USER_STRIP phs>)(map_expr));                                 \
    template <GA__USER_CLASSES phs>                                                                       \
    GA_DEV ga_user_racc_##name<GA__USER_STRIP phs> ga_user_reduce_##name(ga_user_racc_##name<GA__USER_STRIP phs> a, \
                                                                         ga_user_racc_##name<GA__USER_STRIP phs> b) \
    {                                                                                                     \
        return (ga_user_racc_##name<GA__USER_STRIP phs>)(reduce_expr);                                    \
    }                                                                                                     \
    template <GA__USER_CLASSES phs>                                                                       \
    GA_DEV void ga_user_rpost_##name(ga_user_racc_##name<GA__USER_STRIP phs> a, GA__USER_STRIP outs)      \
    {                                                                                                     \
        post_map_expr;                                                                                    \
    }                                                                                                     \
    template <GA__USER_CLASSES phs> GA_DEV ga_user_racc_##name<GA__USER_STRIP phs> ga_user_ridentity_##name() \
    {                                                                                                     \
        return (ga_user_racc_##name<GA__USER_STRIP phs>)(identity_expr);                                  \
    }                                                                                                     \
    }                                                                                                     \
    GA__USER_ROP(name)                                                                                    \
    extern "C" __device__ const char ga_user_sig_##name[] = "gpuarr reduction 2;" #name ";" #phs ";" #ins ";" #outs \
                                                            ";" #reduce_type ";" tuples(Y_NAME, ~) ";" #map_expr; \
    tuples(Y_KERNELS, name)

/* GA_REDUCTION(name, loops, (inputs), (output), reduce_type, map_expr,
   reduce_expr, post_map_expr, identity): CuPy's ReductionKernel. map_expr
   (of the inputs) gives each element's value as reduce_type (T or a
   dtype's name: the accumulator); reduce_expr combines two of them, `a`
   and `b`; post_map_expr assigns the output from the result `a`;
   identity is the empty reduction's value. An expression holding a comma
   is parenthesised: (max(a, b)). Deterministic: the order in which
   values are combined depends on the shape and the alignment only. In
   map_expr, `i` is the element's flat C-order index in the (broadcast)
   input, `n` the input's size, `_in_ind` CuPy's spelling of both
   (_in_ind.get(), _in_ind.size()). */
#define GA_REDUCTION(name, loops, ins, outs, reduce_type, map_expr, reduce_expr, post_map_expr, identity_expr) \
    GA__USER_REDUCTION(name, (T), loops, GA__USER_LOOP_NAME, GA__USER_RKERNELS1, ins, outs, reduce_type, map_expr, \
                       reduce_expr, post_map_expr, identity_expr)

/* GA_REDUCTION_TYPES(name, (T, U), tuples, (inputs), (output),
   reduce_type, map_expr, reduce_expr, post_map_expr, identity): several
   placeholders, over the tuples of dtypes the list names (as
   GA_ELEMENTWISE_TYPES's). */
#define GA_REDUCTION_TYPES(name, phs, tuples, ins, outs, reduce_type, map_expr, reduce_expr, post_map_expr,   \
                           identity_expr)                                                                 \
    GA__USER_REDUCTION(name, phs, tuples, GA__USER_TUPLE_NAME, GA__USER_RTKERNELS, ins, outs, reduce_type,   \
                       map_expr, reduce_expr, post_map_expr, identity_expr)

/* ======================================================================== */
/* Raw kernels: gpuarr arrays as views                                       */
/* ======================================================================== */

/* The element at flat C-order index i of view v (T: its storage type). */
template <class T> GA_DEV T &ga_view_at(const ga_view &v, int64_t i)
{
    int64_t off = 0;
    for (int d = v.ndim - 1; d > 0; --d) {
        const int64_t s = v.shape[d], q = i / s;
        off += (i - q * s) * v.strides[d];
        i = q;
    }
    if (v.ndim > 0) off += i * v.strides[0];
    return *(T *)((char *)v.data + off);
}

/* The element at index idx[0..ndim-1] of view v. */
template <class T> GA_DEV T &ga_view_item(const ga_view &v, const int64_t *idx)
{
    int64_t off = 0;
    for (int d = 0; d < v.ndim; ++d) off += idx[d] * v.strides[d];
    return *(T *)((char *)v.data + off);
}

#endif /* GA_KERNELS_GPUARR_USER_CUH */
