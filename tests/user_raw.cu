/* tests/user_raw.cu - a module built without gpuarr's headers (compiled to
   PTX by the Makefile): no version stamp, no signatures, raw kernels only. */
extern "C" __global__ void iota32(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}
