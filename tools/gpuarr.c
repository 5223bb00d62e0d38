/* The implementation of gpuarr.h as one translation unit: compiled into
   build/libgpuarr.so by `make shared` for bindings (the conformance scripts
   load it with ctypes). C programs include gpuarr.h directly instead. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
