// A kernel family stamped with another gpuarr version (0.0.1), for the test
// that a stale fatbin is refused with a clear error. Built as PTX only, so
// it loads on any GPU.
extern "C" __device__ unsigned int ga_fatbin_version = 1;
