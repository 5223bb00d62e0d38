/* kernels/copy.cu - family "copy": astype / copy between any two dtypes.

   For each of the 15 x 15 (from, to) dtype pairs (same-dtype pairs serve
   plain strided copies):

     ga_copy_astype_<from>_<to>_contig(void *out, const void *in, int64_t n)
         out[i] = cast(in[i]) for i < n, both C-contiguous. 16-byte vectors
         when both pointers are 16-byte aligned, else element by element.

     ga_copy_astype_<from>_<to>_strided32(void *out, const void *in, ga__layout2 layout)
     ga_copy_astype_<from>_<to>_strided64(void *out, const void *in, ga__layout2 layout)
         element i (C order over layout.shape) goes from
         in + sum(idx_d * in_strides[d]) to out + sum(idx_d * out_strides[d]).
         strided32: size < 2^31 and every byte offset fits int32.

   Every element address must be aligned to its dtype's natural alignment
   (complex128: 8 bytes). Grid-stride loops: any launch shape is correct. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

template <class From, class To, class UI>
static __device__ __forceinline__ void ga__copy_strided(void *out, const void *in,
                                                        const ga__layout2 &layout)
{
    const int64_t n = layout.size;
    const int64_t t0 = ga_thread_index();
    if (t0 >= n)
        return;
    int64_t nt = ga_thread_count();
    if (nt > n)
        nt = n;
    const UI step = (UI)nt, end = (UI)n;
    for (UI i = (UI)t0; i < end; i += step) {
        int64_t oo, oi;
        ga_layout2_offsets<UI>(layout, i, oo, oi);
        ga_store<To>((char *)out + oo, ga_cast<To>(ga_load<From>((const char *)in + oi)));
    }
}

#define GA__COPY_KERNELS(from, to)                                                        \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), contig)(                 \
        void *out, const void *in, int64_t n)                                             \
    {                                                                                     \
        ga_convert_contig<ga_t_##from, ga_t_##to>(out, in, n);                            \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), strided32)(              \
        void *out, const void *in, const __grid_constant__ ga__layout2 layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint32_t>(out, in, layout);              \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), strided64)(              \
        void *out, const void *in, const __grid_constant__ ga__layout2 layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint64_t>(out, in, layout);              \
    }

GA_FOR_EACH_DTYPE_PAIR(GA__COPY_KERNELS)
