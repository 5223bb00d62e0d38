/* kernels/reduce.cuh - the reductions' machinery: values, loads, the ops,
   results, indexing and the kernels' bodies (ga_reduce_inner,
   ga_reduce_outer, ga_reduce_packed), in an anonymous namespace. Included
   by kernels/reduce.cu, which instantiates gpuarr's own reduction kernels
   (its opening comment describes the passes, the layouts and the
   determinism), and by kernels/gpuarr_user.cuh, whose GA_REDUCTION
   instantiates the same bodies over a user's op: the same host planner
   (gpuarr.h, >>reduce) drives both. */

#ifndef GA_KERNELS_REDUCE_CUH
#define GA_KERNELS_REDUCE_CUH

#include "common.cuh"

/* Every op declares warns_all_nan; only the final store of min / max reads it. */
#pragma nv_diag_suppress 177

namespace {

constexpr int GA_REDUCE_BLOCK = 256; /* threads per block, fixed: part of the summation order */
constexpr int GA_LOADS_IN_FLIGHT = 4; /* loads in flight per thread */

typedef ga_complex64_t c64;
typedef ga_complex128_t c128;

/* ======================================================================== */
/* Values                                                                    */
/* ======================================================================== */

/* What a value type is: ga_num<V>; its arithmetic (wrapping integers,
   IEEE floats, NumPy's complex formulas): ga_value_add, ga_value_mul,
   ga_value_isnan (numbers.cuh). */

template <class V> GA_DEV V ga_all_parts(double re)
{
    if constexpr (ga_num<V>::is_complex) {
        V z;
        z.re = (ga_real_t<V>)re;
        z.im = (ga_real_t<V>)re;
        return z;
    } else {
        return (V)re;
    }
}
template <class V> GA_DEV V ga_from_real(double re)
{
    V z = ga_all_parts<V>(re);
    if constexpr (ga_num<V>::is_complex) z.im = 0;
    return z;
}

/* x * x rounded once (no contraction into the sum that follows, as NumPy's
   square then add). */
GA_DEV float ga_square_rn(float x) { return __fmul_rn(x, x); }
GA_DEV double ga_square_rn(double x) { return __dmul_rn(x, x); }
GA_DEV float ga_fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
GA_DEV double ga_fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }

/* a before b in the order of min (less) or max (greater); complex:
   lexicographic, real part first. Not for NaN. */
template <class V> GA_DEV bool ga_precedes(V a, V b, bool max)
{
    if constexpr (ga_num<V>::is_complex) {
        bool lt = a.re < b.re || (a.re == b.re && a.im < b.im);
        bool gt = a.re > b.re || (a.re == b.re && a.im > b.im);
        return max ? gt : lt;
    } else {
        return max ? a > b : a < b;
    }
}

template <class V> GA_DEV V ga_minmax_identity(bool max)
{
    if constexpr (ga_num<V>::is_inexact) {
        return ga_all_parts<V>(max ? -INFINITY : INFINITY);
    } else if constexpr (ga__same<V, int64_t>::value) {
        return max ? INT64_MIN : INT64_MAX;
    } else {
        return max ? (V)0 : (V)UINT64_MAX;
    }
}

/* Shuffles of any trivially copyable value, 32 bits at a time. */
template <class S> GA_DEV S ga_shfl_down_any(S v, int delta)
{
    constexpr int W = (int)((sizeof(S) + 3) / 4);
    uint32_t w[W];
    memset(w, 0, sizeof w);
    memcpy(w, &v, sizeof(S));
#pragma unroll
    for (int i = 0; i < W; i++) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta);
    memcpy(&v, w, sizeof(S));
    return v;
}

/* ======================================================================== */
/* Loads: what the elements are read as                                      */
/* ======================================================================== */

/* Stored values of the value type itself (16-byte vectors allowed). */
template <class T> struct ga_in_native {
    typedef T V;
    typedef T stored;
    static constexpr bool vector = sizeof(T) <= 16;
    static GA_DEV V load(const char *p, const ga__reduce_args &) { return ga_load<T>(p); }
    static GA_DEV V convert(T x, const ga__reduce_args &) { return x; }
};

/* Whether the generic load into V is defined for storage type T. */
template <class V, class T> GA_DEV constexpr bool ga_can_load_as()
{
    constexpr int c = ga_num<T>::category;
    if constexpr (ga__same<V, int64_t>::value || ga__same<V, uint64_t>::value)
        return c == GA_CAT_BOOL || c == GA_CAT_SINT || c == GA_CAT_UINT;
    else if constexpr (ga__same<V, float>::value)
        return c == GA_CAT_FLOAT && sizeof(T) <= 4;
    else if constexpr (ga__same<V, double>::value)
        return c != GA_CAT_COMPLEX;
    else
        return false;
}

/* Any dtype converted to V as loaded (a switch on args.in_dtype). */
template <class Vt> struct ga_in_generic {
    typedef Vt V;
    typedef Vt stored;
    static constexpr bool vector = false;
    static GA_DEV V load(const char *p, const ga__reduce_args &a)
    {
        switch (a.in_dtype) {
#define GA__LOAD_CASE(E, name, size, kind)                                        \
    case GA_##E:                                                                  \
        if constexpr (ga_can_load_as<V, ga_t_##name>()) return ga_cast<V>(ga_load<ga_t_##name>(p)); \
        break;
            GA_DTYPE_LIST(GA__LOAD_CASE)
#undef GA__LOAD_CASE
        }
        return V();
    }
    static GA_DEV V convert(V x, const ga__reduce_args &) { return x; }
};

/* Stored values of dtype T widened to V as they are loaded (16-byte
   vectors allowed): what ga_reduce_range reads a ga_in_generic<V> range
   as, once it has switched on args.in_dtype. */
template <class T, class Vt> struct ga_in_widened {
    typedef Vt V;
    typedef T stored;
    static constexpr bool vector = sizeof(T) <= 16;
    static GA_DEV V load(const char *p, const ga__reduce_args &) { return ga_cast<V>(ga_load<T>(p)); }
    static GA_DEV V convert(T x, const ga__reduce_args &) { return ga_cast<V>(x); }
};
template <class In> struct ga_is_generic_in { static constexpr bool value = false; };
template <class V> struct ga_is_generic_in<ga_in_generic<V>> { static constexpr bool value = true; };
/* The stored dtypes T whose ranges ga_reduce_range reads as
   ga_in_widened<T, V>: bool and the integers into 64-bit integers, the
   16-bit floats into float32. (The rest, rarer: integers into float64
   for mean, stay with the switch per element, which keeps the fatbin
   and its build smaller.) */
template <class V, class T> GA_DEV constexpr bool ga_widens()
{
    if constexpr (ga__same<V, float>::value) return ga_can_load_as<V, T>() && sizeof(T) == 2;
    else if constexpr (ga__same<V, int64_t>::value || ga__same<V, uint64_t>::value) return ga_can_load_as<V, T>();
    else return false;
}

/* Any dtype, as a truth value: nonzero, or with GA__RF_NOTNAN, not NaN. */
struct ga_in_any {
    typedef bool V;
    typedef bool stored;
    static constexpr bool vector = false;
    template <class T> static GA_DEV bool truth(const char *p, bool notnan) { return truth_of(ga_load<T>(p), notnan); }
    template <class T> static GA_DEV bool truth_of(T x, bool notnan)
    {
        if constexpr (ga_num<T>::is_complex) {
            return notnan ? !(x.re != x.re || x.im != x.im) : (x.re != 0 || x.im != 0);
        } else if constexpr (ga_num<T>::is_float) {
            const auto f = ga__widen(x); /* float, or double */
            return notnan ? !(f != f) : f != 0;
        } else {
            return notnan ? true : ga__nonzero(x);
        }
    }
    static GA_DEV V load(const char *p, const ga__reduce_args &a)
    {
        const bool notnan = (a.flags & GA__RF_NOTNAN) != 0;
        switch (a.in_dtype) {
#define GA__TRUTH_CASE(E, name, size, kind) \
    case GA_##E: return truth<ga_t_##name>(p, notnan);
            GA_DTYPE_LIST(GA__TRUTH_CASE)
#undef GA__TRUTH_CASE
        }
        return false;
    }
};

/* Stored values of dtype T as truth values (16-byte vectors allowed): what
   ga_reduce_range reads a ga_in_any range as, once it has switched on
   args.in_dtype. */
template <class T> struct ga_in_truth {
    typedef bool V;
    typedef T stored;
    static constexpr bool vector = sizeof(T) <= 16;
    static GA_DEV V load(const char *p, const ga__reduce_args &a) { return convert(ga_load<T>(p), a); }
    static GA_DEV V convert(T x, const ga__reduce_args &a)
    {
        return ga_in_any::truth_of(x, (a.flags & GA__RF_NOTNAN) != 0);
    }
};

/* ======================================================================== */
/* Operations                                                                */
/* ======================================================================== */
/* Each has a state S, identity(), accumulate(s, x, k) for the elements of
   one accumulator in increasing index k, combine(a, b) for any two states,
   and result(s): the value the final pass stores. */

template <class V> struct ga_op_sum {
    typedef V S;
    typedef V R;
    static constexpr bool warns_all_nan = false;
    bool nan = false;
    GA_DEV ga_op_sum() {}
    GA_DEV explicit ga_op_sum(const ga__reduce_args &a) : nan((a.flags & GA__RF_NAN) != 0) {}
    /* +0.0, NumPy's first value (its add's identity 0): sum([-0.0]) and
       nansum([-0.0, nan]) are 0.0 (NumPy 2.5; -0.0 here gave -0.0) */
    GA_DEV S identity() const { return ga_all_parts<V>(0.0); }
    GA_DEV S empty() const { return identity(); }
    GA_DEV void accumulate(S &s, V x, int64_t) const
    {
        if (nan && ga_value_isnan(x)) x = ga_all_parts<V>(0.0); /* nansum: NaN counts as 0 */
        s = ga_value_add(s, x);
    }
    GA_DEV S combine(S a, S b) const { return ga_value_add(a, b); }
    GA_DEV R result(S s) const { return s; }
};

template <class V, bool Complex = ga_num<V>::is_complex> struct ga_op_prod {
    typedef V S;
    typedef V R;
    static constexpr bool warns_all_nan = false;
    bool nan = false;
    GA_DEV ga_op_prod() {}
    GA_DEV explicit ga_op_prod(const ga__reduce_args &a) : nan((a.flags & GA__RF_NAN) != 0) {}
    GA_DEV S identity() const { return ga_from_real<V>(1.0); }
    GA_DEV S empty() const { return identity(); }
    GA_DEV void accumulate(S &s, V x, int64_t) const
    {
        if (nan && ga_value_isnan(x)) x = ga_from_real<V>(1.0);
        s = ga_value_mul(s, x);
    }
    GA_DEV S combine(S a, S b) const { return ga_value_mul(a, b); }
    GA_DEV R result(S s) const { return s; }
};

/* prod of complex numbers. NumPy multiplies in order, from 1: ((1 * x0) *
   x1) * ... with the ufunc's multiply (numbers.cuh's ga_cmul), whose
   results with infinite or NaN parts depend on the order: once a product
   has such a part, every part is NaN two multiplications later. So the
   order matters at the last two elements only: the state keeps the product
   of the others (the head: any order, as the sums) apart from elements n -
   2 and n - 1 (t2, t1; n: the row's length, known to the first pass, which
   sees each element's index), and notes a head element that is not finite
   (then NumPy's result is NaN in both parts). The result is ((head * t2) *
   t1), NumPy's values for infinities and NaN too. Not for finite elements
   whose product overflows in the head: a zero multiplied there before the
   overflow gives 0, after it NaN, and the head's order is not NumPy's (nor
   is CuPy's, a tree throughout). */
enum { GA_CPROD_T2 = 1, GA_CPROD_T1 = 2, GA_CPROD_NONFINITE = 4, GA_CPROD_HEAD = 8 /* head has elements */ };
template <class Z> struct ga_cprod_state {
    Z head, t2, t1;
    int32_t flags; /* GA_CPROD_* */
};
template <class V> struct ga_op_prod<V, true> {
    typedef ga_cprod_state<V> S;
    typedef V R;
    static constexpr bool warns_all_nan = false;
    static constexpr bool lifts_initial = true; /* see with_initial */
    bool nan = false;
    int64_t n = 0;
    GA_DEV ga_op_prod() {}
    GA_DEV explicit ga_op_prod(const ga__reduce_args &a) : nan((a.flags & GA__RF_NAN) != 0), n(a.length) {}
    GA_DEV S identity() const
    {
        S s;
        s.head = s.t2 = s.t1 = ga_from_real<V>(1.0);
        s.flags = 0;
        return s;
    }
    GA_DEV S empty() const { return identity(); }
    GA_DEV void accumulate(S &s, V x, int64_t k) const
    {
        if (nan && ga_cnan(x)) x = ga_from_real<V>(1.0); /* NumPy's nanprod: NaN replaced by 1 */
        if (k == n - 1) {
            s.t1 = x;
            s.flags |= GA_CPROD_T1;
        } else if (k == n - 2) {
            s.t2 = x;
            s.flags |= GA_CPROD_T2;
        } else {
            if (!(isfinite(x.re) && isfinite(x.im))) s.flags |= GA_CPROD_NONFINITE;
            s.head = ga_cmul(s.head, x);
            s.flags |= GA_CPROD_HEAD;
        }
    }
    GA_DEV S combine(S a, S b) const
    {
        S r;
        r.head = ga_cmul(a.head, b.head);
        r.t2 = (b.flags & GA_CPROD_T2) ? b.t2 : a.t2;
        r.t1 = (b.flags & GA_CPROD_T1) ? b.t1 : a.t1;
        r.flags = a.flags | b.flags;
        return r;
    }
    GA_DEV R result(S s) const
    {
        if (s.flags & GA_CPROD_NONFINITE) return ga_cplx<V>(NAN, NAN);
        V p = s.head;
        if (s.flags & GA_CPROD_T2) p = ga_cmul(p, s.t2);
        if (s.flags & GA_CPROD_T1) p = ga_cmul(p, s.t1);
        return p;
    }
    /* initial=: NumPy's first factor, in place of the 1 (an empty row
       gives it unchanged). Not finite, it makes both parts NaN three
       multiplications later: with a head element (n >= 3). */
    GA_DEV S with_initial(V init, S s) const
    {
        if (!(isfinite(init.re) && isfinite(init.im)) && (s.flags & GA_CPROD_HEAD)) s.flags |= GA_CPROD_NONFINITE;
        s.head = (s.flags & GA_CPROD_HEAD) ? ga_cmul(init, s.head) : init;
        s.flags |= GA_CPROD_HEAD;
        return s;
    }
};

static_assert(sizeof(ga_cprod_state<ga_complex64_t>) == GA__CPROD_STATE_SIZE_COMPLEX64, "the host's state size");
static_assert(sizeof(ga_cprod_state<ga_complex128_t>) == GA__CPROD_STATE_SIZE_COMPLEX128, "the host's state size");

/* min / max: NaN propagates, or with GA__RF_NAN is skipped (an all-NaN
   slice gives NaN: the nan forms' identity). Complex numbers: below. */
template <class V, bool Complex = ga_num<V>::is_complex> struct ga_op_minmax {
    typedef V S;
    typedef V R;
    static constexpr bool warns_all_nan = true; /* nanmin / nanmax of an all-NaN slice */
    bool nan = false, max = false;
    GA_DEV ga_op_minmax() {}
    GA_DEV explicit ga_op_minmax(const ga__reduce_args &a)
        : nan((a.flags & GA__RF_NAN) != 0), max((a.flags & GA__RF_MAX) != 0) {}
    GA_DEV S identity() const
    {
        if constexpr (ga_num<V>::is_inexact)
            if (nan) return ga_all_parts<V>(NAN);
        return ga_minmax_identity<V>(max);
    }
    GA_DEV S empty() const { return identity(); }
    GA_DEV void accumulate(S &s, V x, int64_t) const { s = combine(s, x); }
    GA_DEV S combine(S s, S x) const
    {
        if constexpr (ga_num<V>::is_inexact) {
            if (nan) {
                if (ga_value_isnan(x)) return s;
                if (ga_value_isnan(s)) return x;
            } else {
                if (ga_value_isnan(s)) return s;
                if (ga_value_isnan(x)) return x;
            }
        }
        return ga_precedes(x, s, max) ? x : s;
    }
    GA_DEV R result(S s) const { return s; }
};

/* argmin / argmax: the first index of the extreme; NaN is extreme (the
   first NaN wins) unless GA__RF_NAN skips it. i < 0: no element yet. */
template <class V> struct ga_arg_state {
    V v;
    int64_t i;
};
static_assert(sizeof(ga_arg_state<float>) == 16 && sizeof(ga_arg_state<c64>) == 16 &&
                  sizeof(ga_arg_state<c128>) == 32 && sizeof(ga_arg_state<int64_t>) == 16,
              "the host's sizes of argmin/argmax partial states");

template <class V> struct ga_op_arg {
    typedef ga_arg_state<V> S;
    typedef int64_t R;
    static constexpr bool warns_all_nan = false;
    bool nan = false, max = false;
    GA_DEV ga_op_arg() {}
    GA_DEV explicit ga_op_arg(const ga__reduce_args &a)
        : nan((a.flags & GA__RF_NAN) != 0), max((a.flags & GA__RF_MAX) != 0) {}
    GA_DEV S identity() const
    {
        S s;
        s.v = ga_all_parts<V>(0.0);
        s.i = -1;
        return s;
    }
    GA_DEV S empty() const { return identity(); }
    /* k increases from one call to the next on the same state */
    GA_DEV void accumulate(S &s, V x, int64_t k) const
    {
        const bool xn = ga_value_isnan(x);
        if (nan && xn) return;
        if (s.i < 0 || (!ga_value_isnan(s.v) && (xn || ga_precedes(x, s.v, max)))) {
            s.v = x;
            s.i = k;
        }
    }
    GA_DEV S combine(S a, S b) const
    {
        if (b.i < 0) return a;
        if (a.i < 0) return b;
        const bool an = ga_value_isnan(a.v), bn = ga_value_isnan(b.v);
        bool take_b;
        if (an || bn) take_b = an && bn ? b.i < a.i : bn;
        else if (ga_precedes(b.v, a.v, max)) take_b = true;
        else if (ga_precedes(a.v, b.v, max)) take_b = false;
        else take_b = b.i < a.i;
        return take_b ? b : a;
    }
    GA_DEV R result(S s) const { return s.i; }
};

/* min / max of complex numbers as NumPy's minimum / maximum (nan forms:
   fmin / fmax) reduce them: in order, keeping the first of equal values
   and the first NaN, as they are (which NaN of (nan+1j) and (1+nanj), and
   which of 0j and -0j, is in the result's bits). The state is argmin /
   argmax's: the value and its index. The nan forms take a number over a
   NaN, and of an all-NaN slice give its first element, as fmax does. */
template <class V> struct ga_op_minmax<V, true> : ga_op_arg<V> {
    typedef ga_arg_state<V> S;
    typedef V R;
    static constexpr bool warns_all_nan = true;
    static constexpr bool lifts_initial = true; /* see with_initial */
    GA_DEV ga_op_minmax() {}
    GA_DEV explicit ga_op_minmax(const ga__reduce_args &a) : ga_op_arg<V>(a) {}
    /* k increases from one call to the next on the same state */
    GA_DEV void accumulate(S &s, V x, int64_t k) const
    {
        const bool xn = ga_value_isnan(x), sn = s.i >= 0 && ga_value_isnan(s.v);
        bool take;
        if (s.i < 0) take = true;
        else if (!this->nan) take = !sn && (xn || ga_precedes(x, s.v, this->max)); /* the first NaN wins */
        else take = !xn && (sn || ga_precedes(x, s.v, this->max));               /* a number beats NaN */
        if (take) {
            s.v = x;
            s.i = k;
        }
    }
    GA_DEV S combine(S a, S b) const
    {
        if (b.i < 0) return a;
        if (a.i < 0) return b;
        const bool an = ga_value_isnan(a.v), bn = ga_value_isnan(b.v);
        bool take_b;
        if (an && bn) take_b = b.i < a.i;
        else if (an || bn) take_b = this->nan ? an : bn;
        else if (ga_precedes(b.v, a.v, this->max)) take_b = true;
        else if (ga_precedes(a.v, b.v, this->max)) take_b = false;
        else take_b = b.i < a.i;
        return take_b ? b : a;
    }
    GA_DEV R result(S s) const { return s.i < 0 ? ga_all_parts<V>(NAN) : s.v; }
    /* initial=: NumPy's first value, before every element */
    GA_DEV S with_initial(V init, S s) const
    {
        S r;
        r.v = init;
        r.i = 0;
        if (s.i < 0) return r;
        const bool in = ga_value_isnan(init), sn = ga_value_isnan(s.v);
        if (this->nan) { /* fmax(init, x): x only where init is NaN and x not, or x precedes */
            if (in) return sn ? r : s;
            return !sn && ga_precedes(s.v, init, this->max) ? s : r;
        }
        if (in) return r;
        if (sn) return s;
        return ga_precedes(s.v, init, this->max) ? s : r;
    }
};

/* The partial states of an op (argmin / argmax, complex prod, min and
   max), combined again: Base's state, result and initial, each element a
   state (read by ga_in_states). */
template <class Base> struct ga_op_states : Base {
    typedef typename Base::S S;
    GA_DEV ga_op_states() {}
    GA_DEV explicit ga_op_states(const ga__reduce_args &a) : Base(a) {}
    GA_DEV void accumulate(S &s, S x, int64_t) const { s = this->combine(s, x); }
};
template <class V> using ga_op_argcombine = ga_op_states<ga_op_arg<V>>;
template <class V> using ga_op_prodcombine = ga_op_states<ga_op_prod<V>>;
template <class V> using ga_op_minmaxcombine = ga_op_states<ga_op_minmax<V>>;

/* Partial states as stored by the passes before (pool blocks, 256-byte
   aligned, each state a multiple of 16 bytes): whole 16-byte loads. (A
   memcpy from a char pointer, of unknown alignment, is a load per byte.) */
template <class St> struct ga_in_states {
    typedef St V;
    typedef St stored;
    static constexpr bool vector = false;
    static_assert(sizeof(St) % 16 == 0, "partial states fill whole 16-byte vectors");
    static GA_DEV V load(const char *p, const ga__reduce_args &)
    {
        uint4 w[sizeof(St) / 16];
#pragma unroll
        for (int i = 0; i < (int)(sizeof(St) / 16); i++) w[i] = ga_load16(p + 16 * i);
        V s;
        memcpy(&s, w, sizeof s);
        return s;
    }
};

/* What a thread accumulates one row range into: the op's state, or for
   argmin / argmax a lean one with a 32-bit index relative to the range's
   start (fewer registers and instructions on the hot path). */
template <class Op> struct ga_accumulator {
    typedef typename Op::S A;
    static GA_DEV A identity(const Op &op) { return op.identity(); }
    template <class X> static GA_DEV void add(const Op &op, A &s, X x, int64_t lo, int32_t rel)
    {
        op.accumulate(s, x, lo + rel);
    }
    template <int VW, class T, class L>
    static GA_DEV void add_vector(const Op &op, A &s, const T (&e)[VW], const ga__reduce_args &a, int64_t lo, int32_t k)
    {
#pragma unroll
        for (int q = 0; q < VW; q++) add(op, s, L::convert(e[q], a), lo, k + q);
    }
    static GA_DEV A combine(const Op &op, A a, A b) { return op.combine(a, b); }
    static GA_DEV typename Op::S finish(const Op &, A a, int64_t) { return a; }
};
template <class V> struct ga_arg_lean {
    V v;
    int32_t i;
};
template <class V> struct ga_accumulator<ga_op_arg<V>> {
    typedef ga_op_arg<V> Op;
    typedef ga_arg_lean<V> A;
    static GA_DEV A identity(const Op &)
    {
        A a;
        a.v = ga_all_parts<V>(0.0);
        a.i = -1;
        return a;
    }
    static GA_DEV void add(const Op &op, A &s, V x, int64_t, int32_t k)
    {
        const bool xn = ga_value_isnan(x);
        if (op.nan && xn) return;
        if (s.i < 0 || (!ga_value_isnan(s.v) && (xn || ga_precedes(x, s.v, op.max)))) {
            s.v = x;
            s.i = k;
        }
    }
    template <int VW, class T, class L>
    static GA_DEV void add_vector(const Op &op, A &s, const T (&e)[VW], const ga__reduce_args &a, int64_t lo, int32_t k)
    {
#pragma unroll
        for (int q = 0; q < VW; q++) add(op, s, L::convert(e[q], a), lo, k + q);
    }
    static GA_DEV A combine(const Op &op, A a, A b)
    {
        typename Op::S sa, sb;
        sa.v = a.v, sa.i = a.i, sb.v = b.v, sb.i = b.i;
        sa = op.combine(sa, sb);
        a.v = sa.v;
        a.i = (int32_t)sa.i;
        return a;
    }
    static GA_DEV typename Op::S finish(const Op &, A a, int64_t lo)
    {
        typename Op::S s;
        s.v = a.v;
        s.i = a.i < 0 ? -1 : lo + a.i;
        return s;
    }
};

/* ------------------------------------------------------------------------ */
/* min / max and argmin / argmax over 16-byte vectors, the flags fixed      */
/* ------------------------------------------------------------------------ */

/* The type in which stored values of T are ordered: 32-bit integers for
   bool and the narrower integers (their signedness), float32 for the 16-bit
   floats (exact), else T. */
template <class T, bool Narrow = (sizeof(T) < 4)> struct ga_order_type { typedef T type; };
template <class T> struct ga_order_type<T, true> {
    template <bool F, class A, class B> struct pick { typedef A type; };
    template <class A, class B> struct pick<false, A, B> { typedef B type; };
    typedef typename pick<ga_num<T>::is_float, float,
                          typename pick<ga_num<T>::is_sint, int32_t, uint32_t>::type>::type type;
};
template <class T> GA_DEV typename ga_order_type<T>::type ga_order_value(T x)
{
    typedef typename ga_order_type<T>::type C;
    if constexpr (ga_num<T>::is_bool) return (C)(x.v != 0);
    else if constexpr (ga_num<T>::is_float && sizeof(T) == 2) return ga__widen(x);
    else return (C)x;
}

/* Whether ga_extreme_vectors reads stored T for the value type V of min /
   max and argmin / argmax: floats as stored, the 16-bit floats for float32,
   signed integers for int64, bool and unsigned integers for uint64 (the
   value types the host gives those dtypes). */
template <class V, class T> GA_DEV constexpr bool ga_orders_as()
{
    if constexpr (ga__same<V, T>::value) return ga_num<V>::is_float || ga_num<V>::is_sint || ga_num<V>::is_uint;
    else if constexpr (ga__same<V, float>::value) return ga_num<T>::is_float && sizeof(T) == 2;
    else if constexpr (ga__same<V, int64_t>::value) return ga_num<T>::is_sint;
    else if constexpr (ga__same<V, uint64_t>::value) return ga_num<T>::is_uint || ga_num<T>::is_bool;
    else return false;
}

/* The extreme (MAX: the maximum) of a thread's 16-byte vectors of stored T,
   in T's order type C, the flags fixed at compile time. NANS (floats):
   GA_NAN_WINS, a NaN propagates (maximum); GA_NAN_SKIPPED, a number is
   taken over a NaN, NaN only when every element is one (fmax). A vector's
   elements are reduced as a tree, GA_LOADS_IN_FLIGHT running extremes
   across vectors: no branch, no flag tested per element. Which of -0.0
   and 0.0 wins a tie is not defined (nor is it in NumPy); which NaN is
   returned neither. */
enum { GA_NAN_WINS, GA_NAN_LOSES, GA_NAN_SKIPPED };
template <class T, bool MAX, int NANS> struct ga_extreme_vectors {
    typedef typename ga_order_type<T>::type C;
    static constexpr int VW = (int)(16 / sizeof(T));
    static constexpr bool is_float = ga_num<C>::is_float;
    /* the extreme of two values */
    static GA_DEV C pick(C a, C b)
    {
        if constexpr (!is_float) {
            return MAX ? (a > b ? a : b) : (a < b ? a : b);
        } else if constexpr (NANS == GA_NAN_SKIPPED) {
            return MAX ? fmax(a, b) : fmin(a, b);
        } else {
#if __CUDA_ARCH__ >= 800
            if constexpr (ga__same<C, float>::value) {
                float m;
                if constexpr (MAX) asm("max.NaN.f32 %0, %1, %2;" : "=f"(m) : "f"(a), "f"(b));
                else asm("min.NaN.f32 %0, %1, %2;" : "=f"(m) : "f"(a), "f"(b));
                return m;
            }
#endif
            return a != a || b != b ? a + b : MAX ? fmax(a, b) : fmin(a, b);
        }
    }
    /* what the running extremes start from: the order's end (WINS), or
       NaN (SKIPPED: a number replaces it, and a range of NaN gives it) */
    static GA_DEV C start()
    {
        if constexpr (is_float) {
            if constexpr (NANS == GA_NAN_SKIPPED) return (C)NAN;
            else return MAX ? (C)-INFINITY : (C)INFINITY;
        } else if constexpr (ga__same<C, int32_t>::value) {
            return MAX ? (C)INT32_MIN : (C)INT32_MAX;
        } else if constexpr (ga_num<C>::is_sint) {
            return MAX ? (C)INT64_MIN : (C)INT64_MAX;
        } else {
            return MAX ? (C)0 : (C)~(C)0;
        }
    }
    /* the extreme of one vector's elements: a tree */
    static GA_DEV C of_vector(const T (&e)[VW])
    {
        C m[VW];
#pragma unroll
        for (int q = 0; q < VW; q++) m[q] = ga_order_value(e[q]);
#pragma unroll
        for (int w = 1; w < VW; w *= 2)
#pragma unroll
            for (int q = 0; q + w < VW; q += 2 * w) m[q] = pick(m[q], m[q + w]);
        return m[0];
    }
    /* vectors t, t + nt, ... below nv */
    static GA_DEV C range(const uint4 *vp, int32_t nv, int t, int nt)
    {
        C m[GA_LOADS_IN_FLIGHT];
#pragma unroll
        for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) m[u] = start();
        ga_for_each_vector<T, GA_LOADS_IN_FLIGHT>(vp, nv, t, nt,
                                                  [&](int u, int32_t, const T (&e)[VW]) { m[u] = pick(m[u], of_vector(e)); });
        C r = m[0];
#pragma unroll
        for (int u = 1; u < GA_LOADS_IN_FLIGHT; u++) r = pick(r, m[u]);
        return r;
    }
};

/* argmin / argmax over a thread's 16-byte vectors of stored T for the
   value type V (vectors t, t + T, ... below nv, GA_LOADS_IN_FLIGHT
   accumulators in flight): only a vector's extreme is compared with the
   running one, without branches, and the vector is remembered; the
   winners are read again at the end for the first element equal to their
   extreme. Strict comparisons keep the first vector on ties, so the
   element found is the first index. SKIPNAN (floats): NaN is skipped. */
template <class T, class V, bool MAX, bool SKIPNAN> struct ga_arg_vectors {
    typedef ga_extreme_vectors<T, MAX, SKIPNAN ? GA_NAN_SKIPPED : GA_NAN_WINS> E;
    typedef typename E::C C;
    /* whether extreme m replaces best: a better number; NaN replaces a
       number unless SKIPNAN (which starts from best = NaN and never takes
       one); nothing replaces a NaN */
    static GA_DEV bool replaces(C m, C best, bool none)
    {
        if constexpr (!E::is_float) {
            return none | (MAX ? m > best : m < best);
        } else {
            const bool beyond = MAX ? !(m <= best) : !(m >= best);
            if constexpr (SKIPNAN) return beyond && m == m;
            else return none || (beyond && best == best);
        }
    }
    static GA_DEV ga_arg_lean<V> range(const ga_op_arg<V> &op, const uint4 *vp, int32_t nv, int t, int nt,
                                       int32_t head)
    {
        constexpr int VW = E::VW;
        C best[GA_LOADS_IN_FLIGHT];
        int32_t at[GA_LOADS_IN_FLIGHT];
#pragma unroll
        for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) {
            if constexpr (E::is_float) best[u] = (C)NAN;
            else best[u] = (C)0;
            at[u] = -1;
        }
        ga_for_each_vector<T, GA_LOADS_IN_FLIGHT>(vp, nv, t, nt, [&](int u, int32_t j, const T (&e)[VW]) {
            const C m = E::of_vector(e);
            const bool take = replaces(m, best[u], at[u] < 0);
            best[u] = take ? m : best[u];
            at[u] = take ? j : at[u];
        });
        ga_arg_lean<V> s;
        s.v = (V)best[0];
        s.i = -1;
#pragma unroll
        for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) {
            if (at[u] < 0) continue;
            const uint4 r = vp[at[u]];
            T e[VW];
            memcpy(e, &r, sizeof e);
            int q = 0;
            while (q < VW - 1 && !(best[u] != best[u] ? ga_order_value(e[q]) != ga_order_value(e[q])
                                                      : ga_order_value(e[q]) == best[u]))
                q++;
            ga_arg_lean<V> w;
            w.v = (V)best[u];
            w.i = head + at[u] * VW + q;
            s = ga_accumulator<ga_op_arg<V>>::combine(op, s, w);
        }
        return s;
    }
};

/* sum of |x - center|^2 over the real value type; center: the row's mean. */
template <class V> struct ga_op_sumsq {
    typedef ga_real_t<V> S;
    typedef S R;
    static constexpr bool warns_all_nan = false;
    bool nan = false;
    V center = V();
    GA_DEV ga_op_sumsq() {}
    GA_DEV explicit ga_op_sumsq(const ga__reduce_args &a) : nan((a.flags & GA__RF_NAN) != 0) {}
    GA_DEV S identity() const { return (S)0; }
    GA_DEV S empty() const { return (S)0; }
    GA_DEV void accumulate(S &s, V x, int64_t) const
    {
        if (nan && ga_value_isnan(x)) return;
        if constexpr (ga_num<V>::is_complex) {
            const S dr = x.re - center.re, di = x.im - center.im;
            s += ga_square_rn(dr) + ga_square_rn(di);
        } else {
            s += ga_square_rn(x - center);
        }
    }
    GA_DEV S combine(S a, S b) const { return a + b; }
    GA_DEV R result(S s) const { return s; }
};

struct ga_op_count {
    typedef int64_t S;
    typedef int64_t R;
    static constexpr bool warns_all_nan = false;
    GA_DEV ga_op_count() {}
    GA_DEV explicit ga_op_count(const ga__reduce_args &) {}
    GA_DEV S identity() const { return 0; }
    GA_DEV S empty() const { return 0; }
    GA_DEV void accumulate(S &s, bool x, int64_t) const { s += x; }
    GA_DEV S combine(S a, S b) const { return a + b; }
    GA_DEV R result(S s) const { return s; }
};

struct ga_op_logic {
    typedef ga_bool_t S;
    typedef ga_bool_t R;
    static constexpr bool warns_all_nan = false;
    bool any = false;
    GA_DEV ga_op_logic() {}
    GA_DEV explicit ga_op_logic(const ga__reduce_args &a) : any((a.flags & GA__RF_ANY) != 0) {}
    GA_DEV S identity() const
    {
        S s;
        s.v = any ? 0 : 1;
        return s;
    }
    GA_DEV S empty() const { return identity(); }
    GA_DEV void accumulate(S &s, bool x, int64_t) const { s.v = any ? (s.v | x) : (s.v & x); }
    GA_DEV S combine(S a, S b) const
    {
        S s;
        s.v = any ? (a.v | b.v) : (a.v & b.v);
        return s;
    }
    GA_DEV R result(S s) const { return s; }
};

/* The op's hook for a row's center (sumsq only). */
template <class Op> GA_DEV void ga_set_center(Op &, const ga__reduce_args &, int64_t) {}
template <class V> GA_DEV void ga_set_center(ga_op_sumsq<V> &op, const ga__reduce_args &a, int64_t aux)
{
    if (a.center) op.center = ga_load<V>((const char *)a.center + aux * (int64_t)sizeof(V));
}

/* ======================================================================== */
/* Results                                                                   */
/* ======================================================================== */

/* v stored at p as dtype `dtype` (NumPy's astype value). */
template <class R> GA_DEV void ga_store_as_dtype(void *p, int dtype, R v)
{
    switch (dtype) {
#define GA__STORE_CASE(E, name, size, kind) \
    case GA_##E: ga_store<ga_t_##name>(p, ga_cast<ga_t_##name>(v)); break;
        GA_DTYPE_LIST(GA__STORE_CASE)
#undef GA__STORE_CASE
    }
}

GA_DEV c128 ga_widen_complex(c64 z)
{
    c128 w;
    w.re = z.re;
    w.im = z.im;
    return w;
}
GA_DEV c128 ga_widen_complex(c128 z) { return z; }

GA_DEV void ga_warn(const ga__reduce_args &a, unsigned bits)
{
    if (a.flag) atomicOr((unsigned *)a.flag, bits);
}

/* The initial value (args.initial, of initial_dtype) as T; `otherwise`
   for a dtype without a case. */
template <class T> GA_DEV T ga_initial_as(const ga__reduce_args &a, T otherwise)
{
    switch (a.initial_dtype) {
#define GA__INITIAL_CASE(E, name, size, kind) \
    case GA_##E: return ga_cast<T>(ga_load<ga_t_##name>((const char *)&a.initial));
        GA_DTYPE_LIST(GA__INITIAL_CASE)
#undef GA__INITIAL_CASE
    }
    return otherwise;
}

/* Whether an op takes initial= through its with_initial (complex prod). */
template <class Op, class = void> struct ga_lifts_initial { static constexpr bool value = false; };
template <class Op> struct ga_lifts_initial<Op, decltype((void)Op::lifts_initial)> {
    static constexpr bool value = Op::lifts_initial;
};

/* The final value of one output: initial combined in, mean / var / std
   divisions in float64 (NumPy divides by an intp count), stored as
   out_dtype at out_off; warnings into a.flag. */
template <class Op, class V>
__device__ __noinline__ void ga_store_final(const Op &op, const ga__reduce_args &a, typename Op::S s, int64_t out_off, int64_t aux_off)
{
    typedef typename Op::S S;
    if (a.length == 0) s = op.empty();
    if (a.has_initial) {
        if constexpr (ga_lifts_initial<Op>::value) {
            s = op.with_initial(ga_initial_as<typename Op::R>(a, op.result(op.identity())), s);
        } else if constexpr (!ga__same<S, typename Op::R>::value || ga__same<S, ga_bool_t>::value) {
            /* arg, count, logic: no initial */
        } else {
            s = op.combine(ga_initial_as<S>(a, op.identity()), s);
        }
    }
    char *out = (char *)a.out + out_off;
    if (a.finalize == GA__FIN_NONE) {
        const auto r = op.result(s);
        if constexpr (ga__same<typename Op::R, int64_t>::value && !ga__same<S, int64_t>::value) {
            if (r < 0) ga_warn(a, GA_WARNING_ALL_NAN); /* nanargmin / nanargmax of an all-NaN slice */
        } else if constexpr (Op::warns_all_nan) {
            if ((a.flags & GA__RF_NAN) && ga_value_isnan(r)) ga_warn(a, GA_WARNING_ALL_NAN);
        }
        ga_store_as_dtype(out, a.out_dtype, r);
        return;
    }
    if constexpr (ga_num<typename Op::R>::is_inexact) {
        double n = a.count ? (double)*(const int64_t *)((const char *)a.count + aux_off * 8) : a.divisor;
        if (a.finalize == GA__FIN_MEAN) {
            if (n == 0) ga_warn(a, GA_WARNING_EMPTY_SLICE);
            const auto r = op.result(s);
            if constexpr (ga_num<typename Op::R>::is_complex) ga_store_as_dtype(out, a.out_dtype, ga_cdiv_real(ga_widen_complex(r), n));
            else ga_store_as_dtype(out, a.out_dtype, (double)r / n);
            return;
        }
    }
    if constexpr (ga_num<typename Op::R>::is_inexact && !ga_num<typename Op::R>::is_complex) {
        double n = a.count ? (double)*(const int64_t *)((const char *)a.count + aux_off * 8) : a.divisor;
        /* var, std: the real sum of squares over max(n - ddof, 0), or (nanvar)
           NaN where n - ddof <= 0 */
        double dof = n - a.ddof;
        if (dof <= 0) ga_warn(a, GA_WARNING_DOF);
        /* a float16 result: NumPy sums the squares into float16 (the
           result's dtype) and divides that sum in float64 */
        double sum = (double)op.result(s), v;
        if (a.out_dtype == GA_FLOAT16) sum = ga__widen(ga_cast<__half>(sum));
        if (a.flags & GA__RF_NANVAR) v = dof > 0 ? sum / dof : NAN;
        else v = sum / (dof > 0 ? dof : 0.0);
        if (a.finalize == GA__FIN_STD) {
            /* the variance rounded to the result's precision, then its sqrt
               in that precision (NumPy's sqrt of the var array) */
            switch (a.out_dtype) {
            case GA_FLOAT64: case GA_COMPLEX128: v = sqrt(v); break;
            case GA_FLOAT16: v = sqrtf(ga__widen(ga_cast<__half>(v))); break;
            case GA_BFLOAT16: v = sqrtf(ga__widen(ga_cast<__nv_bfloat16>(v))); break;
            default: v = sqrtf((float)v); break;
            }
        }
        ga_store_as_dtype(out, a.out_dtype, v);
    }
}

/* ======================================================================== */
/* Indexing                                                                  */
/* ======================================================================== */

GA_DEV int64_t ga_index_div(int64_t x, int64_t n)
{
    return (((uint64_t)x | (uint64_t)n) >> 32) ? x / n : (int64_t)((uint32_t)x / (uint32_t)n);
}

/* Offsets of row `row` (C order over the kept dims) in the input, the
   output and the aux arrays (center, count: element strides). */
GA_DEV void ga_row_offsets(const ga__reduce_args &a, int64_t row, int first_dim_excluded, int64_t &in, int64_t &out,
                    int64_t &aux)
{
    in = out = aux = 0;
    for (int d = a.kept_ndim - 1 - first_dim_excluded; d >= 0; --d) {
        const int64_t n = a.kept_shape[d], q = ga_index_div(row, n), c = row - q * n;
        in += c * a.kept_in[d];
        out += c * a.kept_out[d];
        aux += c * a.kept_aux[d];
        row = q;
    }
}

/* Byte offset of reduced element k (C order over the reduced dims). */
GA_DEV int64_t ga_reduced_offset(const ga__reduce_args &a, int64_t k)
{
    if (a.red_ndim == 1) return k * a.red_in[0];
    int64_t off = 0;
    for (int d = a.red_ndim - 1; d > 0; --d) {
        const int64_t n = a.red_shape[d], q = ga_index_div(k, n);
        off += (k - q * n) * a.red_in[d];
        k = q;
    }
    return a.red_ndim > 0 ? off + k * a.red_in[0] : 0;
}

/* argmin / argmax and complex min / max over a thread's 16-byte vectors of
   complex numbers (vectors t, t + T, ... below nv; element head + j * VW +
   q of the range is element q of vector j): a running extreme and the
   index of its element per load in flight, updated without branches, the
   flags fixed at compile time; then merged as the ops' combine (the first
   index on ties). Each running extreme sees its elements in increasing
   order and keeps the first of equal ones, so that the merge gives the
   sequential result. NANS: how a NaN ranks. */
template <class V, bool MAX, int NANS> struct ga_cextreme_vectors {
    typedef ga_arg_lean<V> L;
    /* x before b in the order (ga_precedes); not for NaN */
    static GA_DEV bool beats(V x, V b)
    {
        if constexpr (MAX) return (x.re > b.re) | ((x.re == b.re) & (x.im > b.im));
        else return (x.re < b.re) | ((x.re == b.re) & (x.im < b.im));
    }
    /* whether x, after b's elements, replaces b (none: no element yet).
       WINS: the first NaN, and nothing after it (maximum, argmax); LOSES: a
       number over a NaN, which stays only while there is none (fmax);
       SKIPPED: never a NaN (nanargmax). */
    static GA_DEV bool takes(V x, V b, bool none)
    {
        const bool xn = ga_cnan(x), bn = ga_cnan(b);
        /* (| and &: predicates, no branches) */
        if constexpr (NANS == GA_NAN_WINS) return none | (!bn & (xn | beats(x, b)));
        else if constexpr (NANS == GA_NAN_LOSES) return none | (!xn & (bn | beats(x, b)));
        else return !xn & (none | beats(x, b));
    }
    /* two running extremes of any elements (i < 0: none) */
    static GA_DEV L merge(L a, L c)
    {
        if (c.i < 0) return a;
        if (a.i < 0) return c;
        const bool an = ga_cnan(a.v), cn = ga_cnan(c.v);
        bool take_c;
        if (an && cn) take_c = c.i < a.i;
        else if (an || cn) take_c = NANS == GA_NAN_WINS ? cn : an;
        else if (beats(c.v, a.v)) take_c = true;
        else if (beats(a.v, c.v)) take_c = false;
        else take_c = c.i < a.i;
        return take_c ? c : a;
    }
    /* (8 loads in flight, not 4: complex kernels are budgeted 2 blocks an
       SM, half the threads of the others, and their registers hold 8
       running extremes and 8 vectors without a spill on sm_90) */
    static GA_DEV L range(const uint4 *vp, int32_t nv, int t, int T, int32_t head)
    {
        constexpr int VW = (int)(16 / sizeof(V)), U = 2 * GA_LOADS_IN_FLIGHT;
        L s[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            s[u].v = ga_all_parts<V>(0.0);
            s[u].i = -1;
        }
        ga_for_each_vector<V, U>(vp, nv, t, T, [&](int u, int32_t j, const V (&e)[VW]) {
#pragma unroll
            for (int q = 0; q < VW; q++) {
                const bool take = takes(e[q], s[u].v, s[u].i < 0);
                s[u].v = take ? e[q] : s[u].v;
                s[u].i = take ? head + j * VW + q : s[u].i;
            }
        });
        L r = s[0];
#pragma unroll
        for (int u = 1; u < U; u++) r = merge(r, s[u]);
        return r;
    }
};

/* complex prod over a thread's 16-byte vectors (t, t + T, ... below nv, all
   before the row's last two elements): a product per load in flight, and
   per product the sum of its elements' parts times 0, NaN once a part is
   inf or NaN (GA_CPROD_NONFINITE), without branches; SKIPNAN: a NaN counts
   as 1 (nanprod). The products, in any order, are the head (ga_op_prod). */
template <class V, bool SKIPNAN> struct ga_cprod_vectors {
    static GA_DEV ga_cprod_state<V> range(const uint4 *vp, int32_t nv, int t, int T)
    {
        typedef ga_real_t<V> F;
        constexpr int VW = (int)(16 / sizeof(V)), U = GA_LOADS_IN_FLIGHT;
        V p[U];
        F probe[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            p[u] = ga_from_real<V>(1.0);
            probe[u] = 0;
        }
        ga_for_each_vector<V, U>(vp, nv, t, T, [&](int u, int32_t, const V (&e)[VW]) {
#pragma unroll
            for (int q = 0; q < VW; q++) {
                V x = e[q];
                if constexpr (SKIPNAN) x = ga_cnan(x) ? ga_from_real<V>(1.0) : x;
                probe[u] = ga_fma_rn(x.im, (F)0, ga_fma_rn(x.re, (F)0, probe[u]));
                p[u] = ga_cmul(p[u], x);
            }
        });
        ga_cprod_state<V> s;
        s.head = p[0];
        F probes = probe[0];
#pragma unroll
        for (int u = 1; u < U; u++) {
            s.head = ga_cmul(s.head, p[u]);
            probes += probe[u];
        }
        s.t2 = s.t1 = ga_from_real<V>(1.0);
        s.flags = (t < nv ? GA_CPROD_HEAD : 0) | (probes != probes ? GA_CPROD_NONFINITE : 0);
        return s;
    }
};

/* Ops with a loop of their own over a thread's 16-byte vectors of stored
   St of a contiguous row (ga_reduce_range): run(op, vp, nv, t, T, head,
   lo) gives the thread's accumulator (ga_accumulator<Op>::A) of vectors t,
   t + T, ... below nv, whose element q of vector j is the range's element
   head + j * VW + q, its row's lo + head + j * VW + q. The op's runtime
   flags are read once per range, each of their combinations a loop. */
template <class Op, class St> struct ga_vector_range { static constexpr bool value = false; };

/* min / max of real values (ga_extreme_vectors), in the stored values'
   order type */
template <class V, class St> struct ga_vector_range<ga_op_minmax<V, false>, St> {
    static constexpr bool value = ga_orders_as<V, St>();
    typedef ga_op_minmax<V, false> Op;
    static GA_DEV V run(const Op &op, const uint4 *vp, int32_t nv, int t, int T, int32_t, int64_t)
    {
        if constexpr (ga_num<V>::is_float) {
            return (V)(op.max ? (op.nan ? ga_extreme_vectors<St, true, GA_NAN_SKIPPED>::range(vp, nv, t, T)
                                        : ga_extreme_vectors<St, true, GA_NAN_WINS>::range(vp, nv, t, T))
                              : (op.nan ? ga_extreme_vectors<St, false, GA_NAN_SKIPPED>::range(vp, nv, t, T)
                                        : ga_extreme_vectors<St, false, GA_NAN_WINS>::range(vp, nv, t, T)));
        } else { /* integers and bool: no NaN */
            return (V)(op.max ? ga_extreme_vectors<St, true, GA_NAN_WINS>::range(vp, nv, t, T)
                              : ga_extreme_vectors<St, false, GA_NAN_WINS>::range(vp, nv, t, T));
        }
    }
};

/* argmin / argmax of real values (ga_arg_vectors) and complex numbers */
template <class V, class St> struct ga_vector_range<ga_op_arg<V>, St> {
    static constexpr bool value = ga_num<V>::is_complex ? ga__same<V, St>::value : ga_orders_as<V, St>();
    typedef ga_op_arg<V> Op;
    static GA_DEV ga_arg_lean<V> run(const Op &op, const uint4 *vp, int32_t nv, int t, int T, int32_t head, int64_t)
    {
        if constexpr (ga_num<V>::is_complex) {
            return op.max ? (op.nan ? ga_cextreme_vectors<V, true, GA_NAN_SKIPPED>::range(vp, nv, t, T, head)
                                    : ga_cextreme_vectors<V, true, GA_NAN_WINS>::range(vp, nv, t, T, head))
                          : (op.nan ? ga_cextreme_vectors<V, false, GA_NAN_SKIPPED>::range(vp, nv, t, T, head)
                                    : ga_cextreme_vectors<V, false, GA_NAN_WINS>::range(vp, nv, t, T, head));
        } else if constexpr (ga_num<V>::is_float) {
            return op.max ? (op.nan ? ga_arg_vectors<St, V, true, true>::range(op, vp, nv, t, T, head)
                                    : ga_arg_vectors<St, V, true, false>::range(op, vp, nv, t, T, head))
                          : (op.nan ? ga_arg_vectors<St, V, false, true>::range(op, vp, nv, t, T, head)
                                    : ga_arg_vectors<St, V, false, false>::range(op, vp, nv, t, T, head));
        } else { /* integers and bool: no NaN */
            return op.max ? ga_arg_vectors<St, V, true, false>::range(op, vp, nv, t, T, head)
                          : ga_arg_vectors<St, V, false, false>::range(op, vp, nv, t, T, head);
        }
    }
};

/* sum of float16 or bfloat16 into float32 (nansum: NaN counts as 0):
   each vector's 8 elements converted (a NaN as it comes: its bits do not
   matter to a sum) and added as a tree, then to one of
   GA_LOADS_IN_FLIGHT running sums; the flag fixed per loop. */
template <class St, bool SKIPNAN> GA_DEV float ga_sum16_vectors(const uint4 *vp, int32_t nv, int t, int T)
{
    constexpr int VW = 8, U = GA_LOADS_IN_FLIGHT;
    float s[U];
#pragma unroll
    for (int u = 0; u < U; u++) s[u] = 0.0f;
    ga_for_each_vector<St, U>(vp, nv, t, T, [&](int u, int32_t, const St (&e)[VW]) {
        float x[VW];
#pragma unroll
        for (int q = 0; q < VW; q++) {
            if constexpr (ga__same<St, __half>::value) x[q] = __half2float(e[q]);
            else x[q] = __bfloat162float(e[q]);
            if constexpr (SKIPNAN) x[q] = x[q] != x[q] ? 0.0f : x[q];
        }
#pragma unroll
        for (int w = 1; w < VW; w *= 2)
#pragma unroll
            for (int q = 0; q + w < VW; q += 2 * w) x[q] = x[q] + x[q + w];
        s[u] = s[u] + x[0];
    });
    static_assert(U == 4, "the last sums' tree");
    return (s[0] + s[1]) + (s[2] + s[3]);
}
template <class St> struct ga_vector_range<ga_op_sum<float>, St> {
    static constexpr bool value = ga_num<St>::is_float && sizeof(St) == 2;
    typedef ga_op_sum<float> Op;
    static GA_DEV float run(const Op &op, const uint4 *vp, int32_t nv, int t, int T, int32_t, int64_t)
    {
        return op.nan ? ga_sum16_vectors<St, true>(vp, nv, t, T) : ga_sum16_vectors<St, false>(vp, nv, t, T);
    }
};

/* complex min / max: argmin / argmax's loop, a number over a NaN with
   GA__RF_NAN (fmin / fmax) */
template <class V, class St> struct ga_vector_range<ga_op_minmax<V, true>, St> {
    static constexpr bool value = ga__same<V, St>::value;
    typedef ga_op_minmax<V, true> Op;
    static GA_DEV typename Op::S run(const Op &op, const uint4 *vp, int32_t nv, int t, int T, int32_t head, int64_t lo)
    {
        const ga_arg_lean<V> l =
            op.max ? (op.nan ? ga_cextreme_vectors<V, true, GA_NAN_LOSES>::range(vp, nv, t, T, head)
                             : ga_cextreme_vectors<V, true, GA_NAN_WINS>::range(vp, nv, t, T, head))
                   : (op.nan ? ga_cextreme_vectors<V, false, GA_NAN_LOSES>::range(vp, nv, t, T, head)
                             : ga_cextreme_vectors<V, false, GA_NAN_WINS>::range(vp, nv, t, T, head));
        typename Op::S s;
        s.v = l.v;
        s.i = l.i < 0 ? -1 : lo + l.i;
        return s;
    }
};

/* complex prod: ga_cprod_vectors up to the row's last two elements, the
   vectors from there element by element (the op's accumulate, which sets
   them apart) */
template <class V, class St> struct ga_vector_range<ga_op_prod<V, true>, St> {
    static constexpr bool value = ga__same<V, St>::value;
    typedef ga_op_prod<V, true> Op;
    static GA_DEV typename Op::S run(const Op &op, const uint4 *vp, int32_t nv, int t, int T, int32_t head, int64_t lo)
    {
        constexpr int VW = (int)(16 / sizeof(V));
        const int64_t before = op.n - 2 - lo - head; /* the range's elements before the last two, from head */
        const int32_t nf = before <= 0 ? 0 : before / VW < nv ? (int32_t)(before / VW) : nv;
        typename Op::S s = op.nan ? ga_cprod_vectors<V, true>::range(vp, nf, t, T)
                                  : ga_cprod_vectors<V, false>::range(vp, nf, t, T);
        for (int32_t j = nf <= t ? t : t + (nf - t + T - 1) / T * T; j < nv; j += T) {
            const uint4 r = vp[j];
            V e[VW];
            memcpy(e, &r, sizeof e);
#pragma unroll
            for (int q = 0; q < VW; q++) op.accumulate(s, e[q], lo + head + (int64_t)j * VW + q);
        }
        return s;
    }
};

/* ======================================================================== */
/* The inner kernel                                                          */
/* ======================================================================== */

/* Thread t of T accumulates the row's elements lo <= k < hi (its share:
   vectors or elements t, t + T, ...; GA_LOADS_IN_FLIGHT loads in flight, into NA
   accumulators, each seeing its elements in increasing order), the loads'
   own way: ga_reduce_range below picks the loads. OneDim: the caller has
   found one reduced dim (red_ndim 1), whose offsets need no division. */
template <class Op, class In, bool OneDim = false>
GA_DEV typename Op::S ga_reduce_range_plain(const Op &op, const ga__reduce_args &a, const char *base, int64_t lo,
                                            int64_t hi, int t, int T)
{
    typedef ga_accumulator<Op> R;
    typedef typename R::A A;
    typedef typename In::stored Tst;
    constexpr int64_t sz = (int64_t)sizeof(Tst);
    constexpr int NA = sizeof(A) <= 8 ? GA_LOADS_IN_FLIGHT : sizeof(A) <= 32 ? 2 : 1; /* complex128 prod: 64 bytes */
    A acc[NA];
#pragma unroll
    for (int u = 0; u < NA; u++) acc[u] = R::identity(op);
    bool done = false;
    const int32_t n = (int32_t)(hi - lo); /* ranges are chunks: below 2^31 */
    if constexpr (In::vector) {
        /* a contiguous row: 16-byte vectors from the first aligned element */
        constexpr int VW = (int)(16 / sz);
        const char *p0 = base + lo * sz;
        const int32_t mis = (int32_t)((16 - (uintptr_t)p0 % 16) % 16);
        /* (a thread alone on a row reads it element by element: its
           neighbours read the next rows, so the loads coalesce) */
        if (T > 1 && a.red_ndim == 1 && a.red_in[0] == sz && mis % sz == 0) {
            done = true;
            const int32_t head = mis / (int32_t)sz < n ? mis / (int32_t)sz : n;
            for (int32_t k = t; k < head; k += T) R::add(op, acc[0], In::load(p0 + k * sz, a), lo, k);
            const int32_t nv = (n - head) / VW;
            const uint4 *vp = (const uint4 *)(p0 + head * sz);
            if constexpr (ga_vector_range<Op, Tst>::value) {
                acc[0] = R::combine(op, acc[0], ga_vector_range<Op, Tst>::run(op, vp, nv, t, T, head, lo));
            } else {
                int32_t j = t;
                for (; j + (GA_LOADS_IN_FLIGHT - 1) * T < nv; j += GA_LOADS_IN_FLIGHT * T) {
                    uint4 r[GA_LOADS_IN_FLIGHT];
#pragma unroll
                    for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) r[u] = vp[j + u * T];
#pragma unroll
                    for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) {
                        Tst e[VW];
                        memcpy(e, &r[u], sizeof e);
                        R::template add_vector<VW, Tst, In>(op, acc[u % NA], e, a, lo, head + (j + u * T) * VW);
                    }
                }
                for (; j < nv; j += T) {
                    uint4 r = vp[j];
                    Tst e[VW];
                    memcpy(e, &r, sizeof e);
#pragma unroll
                    for (int q = 0; q < VW; q++) R::add(op, acc[0], In::convert(e[q], a), lo, head + j * VW + q);
                }
            }
            for (int32_t k = head + nv * VW + t; k < n; k += T) R::add(op, acc[0], In::load(p0 + k * sz, a), lo, k);
        }
    }
    if (!done) { /* any strides: each element through the reduced dims */
        /* (partial states of 32 or 64 bytes: 2 loads in flight, which fit
           in registers beside the accumulators) */
        constexpr int LF = sizeof(typename In::V) <= 16 ? GA_LOADS_IN_FLIGHT : 2;
        int32_t k = t;
        auto offset = [&](int64_t e) { return OneDim ? e * a.red_in[0] : ga_reduced_offset(a, e); };
        for (; k + (LF - 1) * T < n; k += LF * T) {
            typename In::V x[LF];
#pragma unroll
            for (int u = 0; u < LF; u++) x[u] = In::load(base + offset(lo + k + u * T), a);
#pragma unroll
            for (int u = 0; u < LF; u++) R::add(op, acc[u % NA], x[u], lo, k + u * T);
        }
        for (; k < n; k += T) R::add(op, acc[0], In::load(base + offset(lo + k), a), lo, k);
    }
    A s = acc[0];
#pragma unroll
    for (int u = 1; u < NA; u++) s = R::combine(op, s, acc[u]);
    return R::finish(op, s, lo);
}

/* Loads with a range loop of their own (In::own_range: a user's
   reduction of several inputs read side by side, kernels/gpuarr_user.cuh)
   run it as In::range<Op>(op, a, base, lo, hi, t, T). */
template <class In, class = void> struct ga_own_range { static constexpr bool value = false; };
template <class In> struct ga_own_range<In, decltype((void)In::own_range)> {
    static constexpr bool value = In::own_range;
};

/* Whether ga_reduce_range reads an op's ranges of stored T widened (else
   through the switch per element): min / max and argmin / argmax only
   the dtypes the host gives their value type (ga_orders_as), which keeps
   the fatbin smaller. */
template <class Op, class T> struct ga_reads_widened { static constexpr bool value = true; };
template <class V, class T> struct ga_reads_widened<ga_op_minmax<V, false>, T> {
    static constexpr bool value = ga_orders_as<V, T>();
};
template <class V, class T> struct ga_reads_widened<ga_op_arg<V>, T> { static constexpr bool value = ga_orders_as<V, T>(); };

/* A thread's share of a row (ga_reduce_range_plain). A converting load
   (ga_in_generic, ga_in_any) switches on the input's dtype once, here, so
   that its rows too are read in 16-byte vectors and converted in
   registers, not through a switch per element (1-byte integers: 3.7 x as
   fast on an H200; with a stride, 2.5 x). Over several reduced dims it
   keeps the switch per element: the offsets' divisions in a copy of the
   loop per dtype were most of these kernels' code (the logic family's
   build took 5 times as long with them). */
template <class Op, class In>
GA_DEV typename Op::S ga_reduce_range(const Op &op, const ga__reduce_args &a, const char *base, int64_t lo, int64_t hi, int t,
                                int T)
{
    if constexpr (ga__same<In, ga_in_any>::value) {
        if (a.red_ndim == 1) switch (a.in_dtype) {
#define GA__TRUTH_RANGE_CASE(E, name, size, kind) \
    case GA_##E: return ga_reduce_range_plain<Op, ga_in_truth<ga_t_##name>, true>(op, a, base, lo, hi, t, T);
            GA_DTYPE_LIST(GA__TRUTH_RANGE_CASE)
#undef GA__TRUTH_RANGE_CASE
        }
    } else if constexpr (ga_is_generic_in<In>::value) {
        typedef typename In::V V;
        if (a.red_ndim == 1) switch (a.in_dtype) {
#define GA__WIDENED_RANGE_CASE(E, name, size, kind)                                                   \
    case GA_##E:                                                                                      \
        if constexpr (ga_widens<V, ga_t_##name>() && ga_reads_widened<Op, ga_t_##name>::value)       \
            return ga_reduce_range_plain<Op, ga_in_widened<ga_t_##name, V>, true>(op, a, base, lo, hi, t, T); \
        break;
            GA_DTYPE_LIST(GA__WIDENED_RANGE_CASE)
#undef GA__WIDENED_RANGE_CASE
        }
    } else if constexpr (ga_own_range<In>::value) {
        return In::template range<Op>(op, a, base, lo, hi, t, T);
    }
    return ga_reduce_range_plain<Op, In>(op, a, base, lo, hi, t, T);
}

/* A state from `delta` lanes down (the whole warp calls it): its bytes, but
   argmin / argmax's without their padding, and complex prod's last two
   elements only where a lane of the warp has them (the last work item of
   a row). */
template <class S> GA_DEV S ga_shfl_down_state(S v, int delta) { return ga_shfl_down_any(v, delta); }
template <class V> GA_DEV ga_arg_state<V> ga_shfl_down_state(ga_arg_state<V> v, int delta)
{
    v.v = ga_shfl_down_any(v.v, delta);
    v.i = ga_shfl_down_any(v.i, delta);
    return v;
}
template <class V> GA_DEV ga_cprod_state<V> ga_shfl_down_state(ga_cprod_state<V> v, int delta)
{
    const bool tails = __any_sync(0xffffffffu, v.flags & (GA_CPROD_T2 | GA_CPROD_T1));
    v.head = ga_shfl_down_any(v.head, delta);
    v.flags = __shfl_down_sync(0xffffffffu, v.flags, delta);
    if (tails) { /* else the flags say that t2 and t1 are unset */
        v.t2 = ga_shfl_down_any(v.t2, delta);
        v.t1 = ga_shfl_down_any(v.t1, delta);
    }
    return v;
}

/* The first lane of each `width` lanes (a power of 2 <= 32) gets their
   states combined (a fixed tree; the whole warp takes part). */
template <class Op> GA_DEV typename Op::S ga_warp_combine(const Op &op, typename Op::S s, int width)
{
    for (int d = width / 2; d > 0; d /= 2) s = op.combine(s, ga_shfl_down_state(s, d));
    return s;
}

/* Stores a row's state: the result (final pass) or partials[row][chunk]. */
template <class Op, class V>
GA_DEV void ga_store_state(const Op &op, const ga__reduce_args &a, int64_t row, int64_t chunk, typename Op::S s,
                     int64_t out_off, int64_t aux_off)
{
    typedef typename Op::R R;
    if (!a.final_pass) {
        ((typename Op::S *)a.out)[row * a.part_row + chunk * a.part_chunk] = s;
    } else if (a.finalize == GA__FIN_NONE && !a.has_initial && a.length > 0 && !(a.flags & GA__RF_NAN) &&
               a.out_dtype == ga_num<R>::dtype) {
        ga_store<R>((char *)a.out + out_off, op.result(s)); /* the common case, inline */
    } else {
        ga_store_final<Op, V>(op, a, s, out_off, aux_off);
    }
}

/* Rows of at most 64 contiguous bytes (GA__RF_TILES): the block
   stages tiles of whole rows in shared memory with 16-byte loads (all of
   a thread's loads in flight at once), then thread t reduces rows t, t +
   256, ... of the tile, element by element in order, and stores them.
   A row is `length` elements of red_in[0] bytes each. */
constexpr int GA_TILE_BYTES = 16384; /* bytes of input per tile (the host's tile_rows too) */

/* Rows of K = 2 or 4 values stored as read, VW / K of them in each 16-byte
   vector, one after the other from a 16-byte aligned start (the packed
   kernels, GA__RF_PACKED): an elementwise grid, GA__RPACKED_LOADS vectors
   per thread, all in flight at once; each row is reduced element by
   element in order, as in the tiles. The row after the last whole vector,
   if any, is thread 0's. */
template <class Op, class In, int K> GA_DEV void ga_reduce_packed_k(const ga__reduce_args &a)
{
    typedef typename In::stored Tst;
    typedef typename Op::R R;
    typedef ga_accumulator<Op> A;
    constexpr int VW = (int)(16 / sizeof(Tst)), PER = VW / K, U = GA__RPACKED_LOADS;
    Op op(a);
    const int64_t nvec = a.rows / PER;
    const int64_t t = (int64_t)blockIdx.x * GA_REDUCE_BLOCK + threadIdx.x, nt = (int64_t)gridDim.x * GA_REDUCE_BLOCK;
    /* the common final store: PER results of R side by side */
    struct alignas(PER * sizeof(R)) results { R r[PER]; };
    const bool together = a.final_pass && a.finalize == GA__FIN_NONE && !a.has_initial && !(a.flags & GA__RF_NAN) &&
                          a.out_dtype == ga_num<R>::dtype && a.kept_out[0] == (int64_t)sizeof(R) &&
                          a.out % sizeof(results) == 0;
    const uint4 *vin = (const uint4 *)a.in;
    for (int64_t v0 = t; v0 < nvec; v0 += U * nt) {
        uint4 raw[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            if (u == 0 || v0 + u * nt < nvec) raw[u] = vin[v0 + u * nt];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t v = v0 + u * nt;
            if (u > 0 && v >= nvec) break;
            Tst e[VW];
            memcpy(e, &raw[u], sizeof e);
            typename Op::S s[PER];
#pragma unroll
            for (int q = 0; q < PER; q++) {
                ga_set_center(op, a, (v * PER + q) * a.kept_aux[0]);
                typename A::A acc = A::identity(op);
#pragma unroll
                for (int j = 0; j < K; j++) A::add(op, acc, In::convert(e[q * K + j], a), 0, j);
                s[q] = A::finish(op, acc, 0);
            }
            if (together) {
                results out;
#pragma unroll
                for (int q = 0; q < PER; q++) out.r[q] = op.result(s[q]);
                ((results *)a.out)[v] = out;
            } else {
#pragma unroll
                for (int q = 0; q < PER; q++) {
                    const int64_t row = v * PER + q;
                    ga_store_state<Op, typename In::V>(op, a, row, 0, s[q], row * a.kept_out[0], row * a.kept_aux[0]);
                }
            }
        }
    }
    const int64_t row = nvec * PER;
    if (t != 0 || row >= a.rows) return;
    ga_set_center(op, a, row * a.kept_aux[0]);
    typename A::A acc = A::identity(op);
    for (int j = 0; j < K; j++) A::add(op, acc, In::load((const char *)a.in + (row * K + j) * (int64_t)sizeof(Tst), a), 0, j);
    ga_store_state<Op, typename In::V>(op, a, row, 0, A::finish(op, acc, 0), row * a.kept_out[0], row * a.kept_aux[0]);
}

template <class Op, class In> GA_DEV void ga_reduce_packed(const ga__reduce_args &a)
{
    if (a.length == 2) ga_reduce_packed_k<Op, In, 2>(a);
    else if constexpr (sizeof(typename In::stored) == 4) ga_reduce_packed_k<Op, In, 4>(a);
}

template <class Op, class In> __device__ __noinline__ void ga_reduce_short_rows(const ga__reduce_args &a)
{
    typedef typename In::V V;
    typedef typename In::stored Tst;
    typedef ga_accumulator<Op> R;
    constexpr int LOADS = GA_TILE_BYTES / 16 / GA_REDUCE_BLOCK;
    __shared__ uint4 tile[GA_TILE_BYTES / 16];
    Op op(a);
    const int64_t row_bytes = a.kept_in[0], esz = a.red_in[0];
    const int64_t tile_rows = (GA_TILE_BYTES / row_bytes) & ~(int64_t)15; /* whole vectors per tile */
    const int64_t ntiles = (a.rows + tile_rows - 1) / tile_rows;
    for (int64_t tl = blockIdx.x; tl < ntiles; tl += gridDim.x) {
        const int64_t r0 = tl * tile_rows, nrows = a.rows - r0 < tile_rows ? a.rows - r0 : tile_rows;
        const int32_t bytes = (int32_t)(nrows * row_bytes), nvec = bytes / 16;
        const char *src = (const char *)a.in + r0 * row_bytes;
        uint4 r[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int v = threadIdx.x + u * GA_REDUCE_BLOCK;
            if (v < nvec) r[u] = ((const uint4 *)src)[v];
        }
#pragma unroll
        for (int u = 0; u < LOADS; u++) {
            const int v = threadIdx.x + u * GA_REDUCE_BLOCK;
            if (v < nvec) tile[v] = r[u];
        }
        for (int32_t b = nvec * 16 + threadIdx.x; b < bytes; b += GA_REDUCE_BLOCK) ((char *)tile)[b] = src[b];
        __syncthreads();
        for (int32_t i = threadIdx.x; i < nrows; i += GA_REDUCE_BLOCK) {
            const int64_t row = r0 + i, ao = row * a.kept_aux[0];
            ga_set_center(op, a, ao);
            const char *p = (const char *)tile + i * row_bytes;
            typename R::A acc = R::identity(op);
            bool done = false;
            if constexpr (In::vector) { /* stored values: 16-byte reads, fewer bank conflicts */
                if (row_bytes % 16 == 0) {
                    constexpr int VW = (int)(16 / sizeof(Tst));
                    for (int32_t j = 0; j < (int32_t)row_bytes / 16; j++) {
                        const uint4 r = ((const uint4 *)p)[j];
                        Tst e[VW];
                        memcpy(e, &r, sizeof e);
#pragma unroll
                        for (int q = 0; q < VW; q++) R::add(op, acc, In::convert(e[q], a), 0, j * VW + q);
                    }
                    done = true;
                }
            }
            if (!done)
                for (int32_t e = 0; e < (int32_t)a.length; e++) R::add(op, acc, In::load(p + e * esz, a), 0, e);
            ga_store_state<Op, V>(op, a, row, 0, R::finish(op, acc, 0), row * a.kept_out[0], ao);
        }
        __syncthreads();
    }
}

/* Work units (row, chunk) go to groups of G threads (a power of 2 up to 32,
   or 256; 256 / G groups per block); a group's states are combined by warp
   shuffles and, for whole blocks, shared memory: fixed trees. Every
   thread of a block runs the same number of rounds (a unit past the end
   is an identity), so that shuffles and barriers see every lane. */
template <class Op, class In> GA_DEV void ga_reduce_inner(const ga__reduce_args &a)
{
    typedef typename Op::S S;
    typedef typename In::V V;
    __shared__ S partial[GA_REDUCE_BLOCK / 32];
    if (a.flags & GA__RF_TILES) {
        if constexpr (sizeof(typename In::stored) <= 16) ga_reduce_short_rows<Op, In>(a);
        return;
    }
    Op op(a);
    const int G = a.group, lg = __ffs(G) - 1, groups = GA_REDUCE_BLOCK >> lg, gid = threadIdx.x >> lg, t = threadIdx.x & (G - 1);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const bool rows = (a.flags & GA__RF_ROWS) != 0; /* one kept dim, one reduced dim, whole rows */
    const int64_t units = a.rows * a.nchunks, step = (int64_t)gridDim.x * groups;
    for (int64_t u = (int64_t)blockIdx.x * groups + gid; u - gid < units; u += step) {
        const bool live = u < units;
        int64_t row = u, c = 0, io, oo, ao;
        if (rows) {
            io = row * a.kept_in[0], oo = row * a.kept_out[0], ao = row * a.kept_aux[0];
        } else {
            row = ga_index_div(u, a.nchunks), c = u - row * a.nchunks;
            ga_row_offsets(a, row, 0, io, oo, ao);
        }
        S s = op.identity();
        if (live) {
            ga_set_center(op, a, ao);
            const int64_t lo = c * a.chunk, hi = lo + a.chunk < a.length ? lo + a.chunk : a.length;
            s = ga_reduce_range<Op, In>(op, a, (const char *)a.in + io, lo, hi, t, G);
        }
        if (G > 1) s = ga_warp_combine(op, s, G < 32 ? G : 32);
        if (G == GA_REDUCE_BLOCK) {
            if (lane == 0) partial[warp] = s;
            __syncthreads();
            if (warp == 0) {
                s = lane < GA_REDUCE_BLOCK / 32 ? partial[lane] : op.identity();
                s = ga_warp_combine(op, s, GA_REDUCE_BLOCK / 32);
            }
            __syncthreads();
        }
        if (live && t == 0) ga_store_state<Op, V>(op, a, row, c, s, oo, ao);
    }
}

/* ======================================================================== */
/* The outer kernel                                                          */
/* ======================================================================== */

template <class Op> struct ga_has_center { static constexpr bool value = false; };
template <class V> struct ga_has_center<ga_op_sumsq<V>> { static constexpr bool value = true; };

/* The outer kernel's work item w: its row of columns m2, tile ct, chunk c. */
struct ga_outer_item {
    int64_t m2, ct, c;
};
GA_DEV ga_outer_item ga_outer_item_of(const ga__reduce_args &a, int64_t w, int64_t ntiles)
{
    ga_outer_item it;
    const int64_t t2 = ga_index_div(w, a.nchunks);
    it.c = w - t2 * a.nchunks;
    it.m2 = ga_index_div(t2, ntiles);
    it.ct = t2 - it.m2 * ntiles;
    return it;
}

/* Thread (x, 0) stores the combined states of its columns. */
template <class Op, class V, int VM>
__device__ __noinline__ void ga_outer_store(const Op &op, const ga__reduce_args &a, const typename Op::S *sm,
                                            int64_t w, int x, int tx, int vec)
{
    const int64_t N = a.kept_shape[a.kept_ndim - 1], tile = (int64_t)tx * vec;
    const ga_outer_item it = ga_outer_item_of(a, w, (N + tile - 1) / tile);
    int64_t io, oo, ao;
    ga_row_offsets(a, it.m2, 1, io, oo, ao);
    const int64_t j0 = it.ct * tile + (int64_t)x * vec;
    for (int q = 0; q < vec && j0 + q < N; q++) {
        const int64_t j = j0 + q;
        ga_store_state<Op, V>(op, a, it.m2 * N + j, it.c, sm[x * VM + q], oo + j * a.kept_out[a.kept_ndim - 1],
                        ao + j * a.kept_aux[a.kept_ndim - 1]);
    }
}

template <class Op, class In> GA_DEV void ga_reduce_outer(const ga__reduce_args &a)
{
    typedef typename Op::S S;
    typedef typename In::V V;
    typedef typename In::stored Tst;
    constexpr int64_t sz = (int64_t)sizeof(Tst);
    /* columns per thread: a 16-byte vector, at most 32 bytes of states */
    constexpr int VMAX = In::vector ? (16 / sz < 32 / (int)sizeof(S) ? (int)(16 / sz) : (int)(32 / sizeof(S))) : 1;
    constexpr int VM = VMAX > 0 ? VMAX : 1;
    constexpr int NOPS = ga_has_center<Op>::value ? VM : 1; /* sumsq: a center per column */
    __shared__ S sm[GA_REDUCE_BLOCK * VM];
    const Op op(a);
    const int tx = a.group, ty = GA_REDUCE_BLOCK / tx, vec = a.vec <= VM ? a.vec : 1;
    const int x = threadIdx.x % tx, y = threadIdx.x / tx;
    const int64_t N = a.kept_shape[a.kept_ndim - 1], col_in = a.kept_in[a.kept_ndim - 1];
    const int64_t tile = (int64_t)tx * vec, ntiles = (N + tile - 1) / tile;
    const int64_t items = a.rows / N * ntiles * a.nchunks;
    const bool vector_loads = In::vector && (a.flags & GA__RF_ALIGNED) && VM == (int)(16 / sz) && vec == VM;
    for (int64_t w = blockIdx.x; w < items; w += gridDim.x) {
        const ga_outer_item it = ga_outer_item_of(a, w, ntiles);
        int64_t io, oo, ao;
        ga_row_offsets(a, it.m2, 1, io, oo, ao);
        const int64_t j0 = it.ct * tile + (int64_t)x * vec;
        S acc[VM];
        Op ops[NOPS];
#pragma unroll
        for (int q = 0; q < VM; q++) acc[q] = op.identity();
#pragma unroll
        for (int q = 0; q < NOPS; q++) {
            ops[q] = op;
            if (q < vec && j0 + q < N) ga_set_center(ops[q], a, ao + (j0 + q) * a.kept_aux[a.kept_ndim - 1]);
        }
        const int64_t lo = it.c * a.chunk, hi = lo + a.chunk < a.length ? lo + a.chunk : a.length;
        const char *base = (const char *)a.in + io + j0 * col_in;
        const int nq = j0 >= N ? 0 : j0 + vec <= N ? vec : (int)(N - j0);
        if (a.red_ndim == 1) { /* one reduced dim: walk it with a pointer */
            const int64_t rs = a.red_in[0], step = ty * rs;
            int64_t r = lo + y;
            const char *p = base + r * rs;
            bool done = false;
            if constexpr (In::vector) {
                if (vector_loads && j0 + VM <= N) {
                    done = true;
                    for (; r + (GA_LOADS_IN_FLIGHT - 1) * (int64_t)ty < hi; r += GA_LOADS_IN_FLIGHT * (int64_t)ty, p += GA_LOADS_IN_FLIGHT * step) {
                        uint4 v[GA_LOADS_IN_FLIGHT];
#pragma unroll
                        for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) v[u] = *(const uint4 *)(p + u * step);
#pragma unroll
                        for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++) {
                            Tst e[16 / sz];
                            memcpy(e, &v[u], sizeof e);
#pragma unroll
                            for (int q = 0; q < VM; q++)
                                ops[NOPS == 1 ? 0 : q].accumulate(acc[q], In::convert(e[q], a), r + u * (int64_t)ty);
                        }
                    }
                    for (; r < hi; r += ty, p += step) {
                        uint4 v = *(const uint4 *)p;
                        Tst e[16 / sz];
                        memcpy(e, &v, sizeof e);
#pragma unroll
                        for (int q = 0; q < VM; q++) ops[NOPS == 1 ? 0 : q].accumulate(acc[q], In::convert(e[q], a), r);
                    }
                }
            }
            if (!done && nq > 0) {
                for (; r + (GA_LOADS_IN_FLIGHT - 1) * (int64_t)ty < hi; r += GA_LOADS_IN_FLIGHT * (int64_t)ty, p += GA_LOADS_IN_FLIGHT * step) {
                    V v[GA_LOADS_IN_FLIGHT][VM];
#pragma unroll
                    for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++)
#pragma unroll
                        for (int q = 0; q < VM; q++)
                            if (q < nq) v[u][q] = In::load(p + u * step + q * col_in, a);
#pragma unroll
                    for (int u = 0; u < GA_LOADS_IN_FLIGHT; u++)
#pragma unroll
                        for (int q = 0; q < VM; q++)
                            if (q < nq) ops[NOPS == 1 ? 0 : q].accumulate(acc[q], v[u][q], r + u * (int64_t)ty);
                }
                for (; r < hi; r += ty, p += step)
#pragma unroll
                    for (int q = 0; q < VM; q++)
                        if (q < nq) ops[NOPS == 1 ? 0 : q].accumulate(acc[q], In::load(p + q * col_in, a), r);
            }
        } else if (nq > 0) { /* several reduced dims: each row of elements through them */
            for (int64_t r = lo + y; r < hi; r += ty) {
                const char *p = base + ga_reduced_offset(a, r);
#pragma unroll
                for (int q = 0; q < VM; q++)
                    if (q < nq) ops[NOPS == 1 ? 0 : q].accumulate(acc[q], In::load(p + q * col_in, a), r);
            }
        }
        /* combine the ty partial states of each column: a fixed tree */
#pragma unroll
        for (int q = 0; q < VM; q++) sm[(y * tx + x) * VM + q] = acc[q];
        __syncthreads();
        for (int s = ty / 2; s > 0; s /= 2) {
            if (y < s)
#pragma unroll
                for (int q = 0; q < VM; q++)
                    sm[(y * tx + x) * VM + q] = op.combine(sm[(y * tx + x) * VM + q], sm[((y + s) * tx + x) * VM + q]);
            __syncthreads();
        }
        if (y == 0) ga_outer_store<Op, V, VM>(op, a, sm, w, x, tx, vec);
        __syncthreads();
    }
}

} /* namespace */

/* ======================================================================== */
/* gpuarr's own kernels                                                      */
/* ======================================================================== */

/* The families "reduce", "extrema" and "logic" (kernels/<family>.cu)
   each instantiate the rows of gpuarr.h's GA__REDUCE_OP_LIST that name them
   (each kernel may be launched as a programmatic dependent: GA_PDL_ENTRY),
   with GA__REDUCE_OWN_KERNELS after defining GA_FAMILY and their
   GA__IN_FAMILY_<family>(...) to keep its argument (the other families'
   drop it: the defaults below). */
#ifndef GA__IN_FAMILY_reduce
#define GA__IN_FAMILY_reduce(...)
#endif
#ifndef GA__IN_FAMILY_extrema
#define GA__IN_FAMILY_extrema(...)
#endif
#ifndef GA__IN_FAMILY_logic
#define GA__IN_FAMILY_logic(...)
#endif

#define GA__REDUCE_OP_sum(V) ga_op_sum<V>
#define GA__REDUCE_OP_prod(V) ga_op_prod<V>
#define GA__REDUCE_OP_minmax(V) ga_op_minmax<V>
#define GA__REDUCE_OP_arg(V) ga_op_arg<V>
#define GA__REDUCE_OP_argcombine(V) ga_op_argcombine<V>
#define GA__REDUCE_OP_sumsq(V) ga_op_sumsq<V>
#define GA__REDUCE_OP_count(V) ga_op_count
#define GA__REDUCE_OP_logic(V) ga_op_logic
#define GA__REDUCE_OP_prodcombine(V) ga_op_prodcombine<V>
#define GA__REDUCE_OP_minmaxcombine(V) ga_op_minmaxcombine<V>

/* <in> -> (value type, load policy): GA__REDUCE_TYPES_<in> */
#define GA__REDUCE_TYPES_float32 float, ga_in_native<float>
#define GA__REDUCE_TYPES_float64 double, ga_in_native<double>
#define GA__REDUCE_TYPES_complex64 c64, ga_in_native<c64>
#define GA__REDUCE_TYPES_complex128 c128, ga_in_native<c128>
#define GA__REDUCE_TYPES_to_float32 float, ga_in_generic<float>
#define GA__REDUCE_TYPES_to_float64 double, ga_in_generic<double>
#define GA__REDUCE_TYPES_to_int64 int64_t, ga_in_generic<int64_t>
#define GA__REDUCE_TYPES_to_uint64 uint64_t, ga_in_generic<uint64_t>
#define GA__REDUCE_TYPES_any bool, ga_in_any
#define GA__REDUCE_TYPES_int64 int64_t, ga_in_generic<int64_t>
#define GA__REDUCE_TYPES_uint64 uint64_t, ga_in_generic<uint64_t>

#define GA__FIRST_ARG(a, b) a
#define GA__SECOND_ARG(a, b) b
#define GA__VALUE_TYPE(...) GA__FIRST_ARG(__VA_ARGS__)
#define GA__LOAD_POLICY(...) GA__SECOND_ARG(__VA_ARGS__)

/* argcombine, minmaxcombine and prodcombine read states: their <in> names
   the state's value type */
template <class Op, class V, class In> struct ga_reduce_kernel {
    typedef Op op;
    typedef In loads;
    typedef V value;
};
template <class Base, class V, class In> struct ga_reduce_kernel<ga_op_states<Base>, V, In> {
    typedef ga_op_states<Base> op;
    typedef ga_in_states<typename Base::S> loads;
    typedef V value;
};

/* Blocks per SM that a kernel's registers are budgeted for: 4 (64
   registers a thread), or 2 (128) for complex values, whose kernels
   spilled up to 292 bytes a thread within 64 (on an H100: complex128 sum,
   prod and max 11%, 19% and 25% faster, complex64 prod and max 8% and 6%;
   2 for every kernel slowed the float32 ones by up to 48%). The grids do
   not depend on it (they follow the SM count): the results do not either. */
template <class K> constexpr int ga_reduce_min_blocks()
{
    return ga_num<typename K::value>::is_complex ? 2 : 4;
}

#define GA__REDUCE_MIN_BLOCKS(OPN, INN) ga_reduce_min_blocks<ga_kernel_##OPN##_##INN>()
#define GA__REDUCE_ENTRY(OPN, INN)                                                                  \
    typedef ga_reduce_kernel<GA__REDUCE_OP_##OPN(GA__VALUE_TYPE(GA__REDUCE_TYPES_##INN)),           \
                             GA__VALUE_TYPE(GA__REDUCE_TYPES_##INN),                                \
                             GA__LOAD_POLICY(GA__REDUCE_TYPES_##INN)>                               \
        ga_kernel_##OPN##_##INN;                                                                    \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK, GA__REDUCE_MIN_BLOCKS(OPN, INN))     \
        GA_KERNEL_NAME(GA_FAMILY, OPN, INN, inner)(const __grid_constant__ ga__reduce_args a)          \
    {                                                                                               \
        GA_PDL_ENTRY();                                                                             \
        ga_reduce_inner<ga_kernel_##OPN##_##INN::op, ga_kernel_##OPN##_##INN::loads>(a);            \
    }                                                                                               \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK, GA__REDUCE_MIN_BLOCKS(OPN, INN))     \
        GA_KERNEL_NAME(GA_FAMILY, OPN, INN, outer)(const __grid_constant__ ga__reduce_args a)          \
    {                                                                                               \
        GA_PDL_ENTRY();                                                                             \
        ga_reduce_outer<ga_kernel_##OPN##_##INN::op, ga_kernel_##OPN##_##INN::loads>(a);            \
    }


#define GA__REDUCE_PACKED_ENTRY(OPN, INN)                                                           \
    extern "C" __global__ void __launch_bounds__(GA_REDUCE_BLOCK)                                   \
        GA_KERNEL_NAME(GA_FAMILY, OPN, INN, packed)(const __grid_constant__ ga__reduce_args a)         \
    {                                                                                               \
        GA_PDL_ENTRY();                                                                             \
        ga_reduce_packed<ga_kernel_##OPN##_##INN::op, ga_kernel_##OPN##_##INN::loads>(a);           \
    }

#define GA__REDUCE_OWN_OF(X, E, name, ins, packed, family) GA__IN_FAMILY_##family(GA__REDUCE_IN_##ins(X, name))
#define GA__REDUCE_OWN_PACKED_OF(X, E, name, ins, packed, family) \
    GA__IN_FAMILY_##family(GA__REDUCE_IN_##packed(X, name))
#define GA__REDUCE_OWN_KERNELS                                   \
    GA__REDUCE_OP_LIST(GA__REDUCE_OWN_OF, GA__REDUCE_ENTRY)      \
    GA__REDUCE_OP_LIST(GA__REDUCE_OWN_PACKED_OF, GA__REDUCE_PACKED_ENTRY)

#endif /* GA_KERNELS_REDUCE_CUH */
