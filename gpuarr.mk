# gpuarr.mk - gpuarr's build rule for user kernels (gpuarr.h, section >>kernel).
#
# A project's Makefile includes it and writes one line per module:
#
#     GPUARR_HOME := /path/to/gpuarr          # or, installed: $(PREFIX)/share/gpuarr
#     include $(GPUARR_HOME)/gpuarr.mk
#
#     build/my_kernels.fatbin: my_kernels.cu $(GPUARR_USER_DEPS) ; $(gpuarr_fatbin)
#     build/my_kernels_image.o: build/my_kernels.fatbin ; $(call gpuarr_embed,my_kernels_image)
#
# gpuarr_fatbin compiles the .cu ($<, which includes "gpuarr_user.cuh") into
# a fatbin ($@) for GPUARR_ARCHS, stamped with the version of the gpuarr
# headers it was compiled against (a module of another version is refused
# at load: GA_ERROR_KERNELS_STALE). The program loads it with
# ga_module_load("build/my_kernels.fatbin").
#
# gpuarr_embed,SYMBOL makes an object ($@) holding the fatbin ($<) as the
# bytes SYMBOL[] .. SYMBOL_end[], for a program of one file:
#     extern const unsigned char my_kernels_image[], my_kernels_image_end[];
#     ga_module_load_data(my_kernels_image, (size_t)(my_kernels_image_end - my_kernels_image));
#
# Variables (set them before the include, or on the command line):
#   GPUARR_ARCHS       SASS for these archs (default: the GPUs nvidia-smi
#                      lists, else gpuarr's distribution list), the newest
#                      one's PTX too; e.g. GPUARR_ARCHS=sm_90
#   CUDA_HOME, NVCC    the toolkit (default /usr/local/cuda, its nvcc)
#   GPUARR_NVCCFLAGS   nvcc's flags (C++17, -O3, compressed fatbins)
# gpuarr's own Makefile includes this file too: its kernels are compiled
# for the same archs by the same flags.

GPUARR_HOME ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# the kernel headers: beside this file in gpuarr's tree, else installed
GPUARR_KERNEL_INCLUDE ?= $(if $(wildcard $(GPUARR_HOME)/kernels/gpuarr_user.cuh),$(GPUARR_HOME)/kernels,$(GPUARR_HOME)/../../include/gpuarr/kernels)
GPUARR_USER_DEPS ?= $(wildcard $(GPUARR_KERNEL_INCLUDE)/*.cuh) $(wildcard $(GPUARR_KERNEL_INCLUDE)/../gpuarr.h)

CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc

GPUARR_DIST_ARCHS := sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
ifeq ($(origin GPUARR_ARCHS),undefined)
  gpuarr_caps := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null)
  gpuarr_detected := $(shell for c in $(gpuarr_caps); do echo "$$c"; done | \
      sed -n 's/^\([0-9][0-9]*\)\.\([0-9]\)$$/sm_\1\2/p' | sort -t_ -k2 -n -u)
  GPUARR_ARCHS := $(if $(gpuarr_detected),$(gpuarr_detected),$(GPUARR_DIST_ARCHS))
else ifeq ($(strip $(GPUARR_ARCHS)),all)
  override GPUARR_ARCHS := $(GPUARR_DIST_ARCHS)
endif

# The kernels use nothing newer than compute_80 (compute_75 for sm_75), so
# each SASS is compiled from one of those two PTX versions; the newest
# one's PTX is embedded too, for the driver to compile on future GPUs.
gpuarr_comma := ,
gpuarr_empty :=
gpuarr_space := $(gpuarr_empty) $(gpuarr_empty)
gpuarr_virtual_of = $(if $(filter sm_75,$(1)),compute_75,compute_80)
gpuarr_virtuals = $(sort $(foreach a,$(GPUARR_ARCHS),$(call gpuarr_virtual_of,$(a))))
gpuarr_sass_for = $(subst $(gpuarr_space),$(gpuarr_comma),$(strip $(foreach a,$(GPUARR_ARCHS),$(if $(filter $(1),$(call gpuarr_virtual_of,$(a))),$(a)))))
gpuarr_ptx_arch = $(call gpuarr_virtual_of,$(lastword $(GPUARR_ARCHS)))
GPUARR_GENCODE = $(foreach v,$(gpuarr_virtuals),-gencode arch=$(v),code=[$(call gpuarr_sass_for,$(v))$(if $(filter $(v),$(gpuarr_ptx_arch)),$(gpuarr_comma)$(v))])
GPUARR_NVCCFLAGS ?= -std=c++17 -O3 --compress-mode=default -Xfatbin -compress-all

gpuarr_fatbin = @mkdir -p $(@D) && echo 'gpuarr: $< -> $@ (SASS for $(GPUARR_ARCHS))' && \
    $(NVCC) $(GPUARR_NVCCFLAGS) --fatbin $(GPUARR_GENCODE) -I$(GPUARR_KERNEL_INCLUDE) -o $@ $<

# the fatbin pulled in whole by the assembler's .incbin, 64-byte aligned
gpuarr_embed = @mkdir -p $(@D) && \
    printf '__asm__(".section .rodata\\n.balign 64\\n.globl %s\\n%s:\\n.incbin \\"%s\\"\\n.globl %s_end\\n%s_end:\\n.byte 0\\n.previous\\n");\n' \
        '$(1)' '$(1)' '$(abspath $<)' '$(1)' '$(1)' > $@.c && \
    $(CC) -c -o $@ $@.c
