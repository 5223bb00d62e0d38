/* tools/cufft_dlink_stub.cu - a translation unit of relocatable device code
   and nothing else: nvcc's device link of it against libcufft_static.a
   (the Makefile's build/cufft_static/dlink.o) registers the archive's own
   relocatable device code (cuFFT's callbacks), which a plain host link
   cannot. A fully static program links this stub, that object and the
   archive. */
__device__ int ga_cufft_dlink_anchor;
