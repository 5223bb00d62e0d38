# gpuarr: `make` builds the kernels, the quickstart and gpuarr-info; `make
# test` runs every test (host tests everywhere, device tests where a GPU is
# present).
#
#   make                                  fatbins for this machine's GPUs, the quickstart, gpuarr-info
#   make fatbins [GPUARR_ARCHS="sm_90"]   kernels/*.cu -> build/kernels/<family>.fatbin,
#                                         kernels/cub/*.cu -> build/libgpuarr_cub.a
#   make fatbins GPUARR_ARCHS=all         the same for every arch of the distribution list
#   make test                             all tests; ends "N passed, N failed, N skipped"
#   make examples                         build/examples/*
#   make shared                           build/libgpuarr.so (bindings, conformance)
#   make bench                            tools/bench beside CuPy when present
#                                         (BENCH_ARGS=--kernels: the user kernels' rows)
#   make sanitize [SANITIZE_TOOLS=...]    the device tests under compute-sanitizer
#   make check-device                     the device tests side by side (a GPU machine)
#   make info                             build/gpuarr-info
#   make install [PREFIX=/usr/local] [DESTDIR=]   header, kernels, archive, gpuarr.pc
#   make clean

# Parallel by default: one job per core unless -j is given (`make -j1` for
# a serial build). The kernel families and the CUB glue are separate
# translation units, so the build takes as long as the slowest of them.
ifeq ($(filter -j% --jobserver%,$(MAKEFLAGS)),)
  MAKEFLAGS += -j$(shell nproc 2> /dev/null || echo 2)
endif

CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
CC ?= cc
BUILD := build
# The distribution list: SASS for each arch CUDA 13 supports, PTX for the
# newest (JIT on future GPUs).
GPUARR_ALL_ARCHS := sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
# GPUARR_ARCHS given (command line or environment): that list, or the
# distribution list for `all`. Not given: SASS for the GPUs nvidia-smi lists
# (compute capability 9.0 -> sm_90; each must be one this nvcc can build),
# else, with no GPU or no nvidia-smi, the distribution list.
ifeq ($(origin GPUARR_ARCHS),undefined)
  detected_caps := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null)
  detected_archs := $(shell for c in $(detected_caps); do echo "$$c"; done | \
      sed -n 's/^\([0-9][0-9]*\)\.\([0-9]\)$$/sm_\1\2/p' | sort -t_ -k2 -n -u)
  nvcc_archs := $(if $(detected_archs),$(shell $(NVCC) --list-gpu-code 2> /dev/null))
  unbuildable := $(filter-out $(nvcc_archs),$(detected_archs))
  ifeq ($(detected_archs),)
    GPUARR_ARCHS := $(GPUARR_ALL_ARCHS)
    archs_why := no GPU found by nvidia-smi: the distribution list (GPUARR_ARCHS=sm_XX builds fewer)
  else ifneq ($(unbuildable),)
    GPUARR_ARCHS := $(GPUARR_ALL_ARCHS)
    archs_why := nvidia-smi found $(detected_archs), but $(NVCC) cannot build $(unbuildable): the distribution list
  else
    GPUARR_ARCHS := $(detected_archs)
    archs_why := the GPUs nvidia-smi found (compute capability $(detected_caps)); GPUARR_ARCHS=all builds for every GPU
  endif
else ifeq ($(strip $(GPUARR_ARCHS)),all)
  override GPUARR_ARCHS := $(GPUARR_ALL_ARCHS)
  archs_why := GPUARR_ARCHS=all: the distribution list
else
  archs_why := GPUARR_ARCHS given ($(origin GPUARR_ARCHS))
endif

# The kernel families: kernels/*.cu (not kernels/cub/, the CUB glue below),
# each compiled into build/kernels/<family>.fatbin.
# The slowest first: make starts a build's jobs in the order it meets
# them, so these start at once and the short ones fill the cores after.
SLOW_FAMILIES := compare arith reduce extrema math logic
FAMILIES := $(SLOW_FAMILIES) $(filter-out $(SLOW_FAMILIES),$(basename $(notdir $(wildcard kernels/*.cu))))
FATBINS := $(FAMILIES:%=$(BUILD)/kernels/%.fatbin)
KERNEL_DIR := $(abspath $(BUILD)/kernels)

# The kernels use nothing newer than compute_80 (compute_75 for sm_75), so
# each SASS is compiled from one of those two PTX versions: the front end
# runs twice instead of once per arch. The PTX of the newest one is embedded
# too, for the driver to compile on future GPUs. gpuarr.mk (the build rule
# of users' kernels, >>kernel) computes that: gpuarr's own kernels and a
# user's are built for the same archs alike.
# FATBIN_COMPRESS: fatbinary's default compression, of every image (without
# -compress-all it left most fatbins uncompressed: math.fatbin 38.5 MB, not
# 5.4). The code is the same; `size` mode made the fatbins and the CUB
# archive about 30% smaller but took a tenth of the distribution build's CPU
# time (about 40 s for arith alone, a serial step at the end of its compile).
FATBIN_COMPRESS := --compress-mode=default -Xfatbin -compress-all
comma := ,
empty :=
space := $(empty) $(empty)
GPUARR_HOME := .
include gpuarr.mk
GENCODE := $(GPUARR_GENCODE)
# The ufunc families' contiguous kernels and the reductions' passes may be
# launched as programmatic dependents (kernels/common.cuh's GA_PDL_ENTRY),
# which needs PTX compute_90:
# their SASS for sm_90 and newer comes from that PTX version (one more run
# of their front end in the distribution build), the rest as above.
PDL_FAMILIES := arith compare math reduce extrema logic
pdl_virtual_of = $(if $(filter sm_75,$(1)),compute_75,$(if $(filter sm_8%,$(1)),compute_80,compute_90))
pdl_virtuals := $(sort $(foreach a,$(GPUARR_ARCHS),$(call pdl_virtual_of,$(a))))
pdl_sass_for = $(subst $(space),$(comma),$(strip $(foreach a,$(GPUARR_ARCHS),$(if $(filter $(1),$(call pdl_virtual_of,$(a))),$(a)))))
pdl_ptx := $(call pdl_virtual_of,$(lastword $(GPUARR_ARCHS)))
GENCODE_PDL := $(foreach v,$(pdl_virtuals),-gencode arch=$(v),code=[$(call pdl_sass_for,$(v))$(if $(filter $(v),$(pdl_ptx)),$(comma)$(v))])
NVCCFLAGS ?= -std=c++17 -O3 --threads 2 --split-compile=0 $(FATBIN_COMPRESS) -Xptxas -warn-spills

# The CUB glue (kernels/cub/*.cu -> build/cub/*.o -> build/libgpuarr_cub.a;
# one translation unit per family of algorithms, so they compile in
# parallel): host C++ over the CUDA runtime, so a static archive that every
# program links, with the static runtime. CUB
# picks its tuning by __CUDA_ARCH__, so each generation's SASS comes from
# its own PTX version (compute_75, 80, 90, 100; 86/89 share 80's tuning and
# 120 100's), the newest embedded as PTX too.
CUB_LIB := $(BUILD)/libgpuarr_cub.a
CUB_SLOW := kernels/cub/sort_keys64.cu kernels/cub/sort_keys32.cu kernels/cub/sort.cu kernels/cub/scan.cu
CUB_SRCS := $(CUB_SLOW) $(filter-out $(CUB_SLOW),$(wildcard kernels/cub/*.cu)) # the slowest first
CUB_OBJS := $(CUB_SRCS:kernels/cub/%.cu=$(BUILD)/cub/%.o)
cub_virtual_of = $(if $(filter sm_7%,$(1)),compute_75,$(if $(filter sm_8%,$(1)),compute_80,$(if $(filter sm_9%,$(1)),compute_90,compute_100)))
cub_virtuals := $(sort $(foreach a,$(GPUARR_ARCHS),$(call cub_virtual_of,$(a))))
cub_sass_for = $(subst $(space),$(comma),$(strip $(foreach a,$(GPUARR_ARCHS),$(if $(filter $(1),$(call cub_virtual_of,$(a))),$(a)))))
cub_ptx := $(call cub_virtual_of,$(lastword $(GPUARR_ARCHS)))
CUB_GENCODE := $(foreach v,$(cub_virtuals),-gencode arch=$(v),code=[$(call cub_sass_for,$(v))$(if $(filter $(v),$(cub_ptx)),$(comma)$(v))])
CUB_NVCCFLAGS ?= -std=c++17 -O3 --threads 2 $(FATBIN_COMPRESS) -Xcompiler -fPIC
CUB_LDLIBS := $(CUB_LIB) -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++ -lrt

CPPFLAGS += -I. -I$(CUDA_HOME)/include -DGPUARR_KERNEL_DIR='"$(KERNEL_DIR)"'
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wpedantic -Werror
LDLIBS := $(CUB_LDLIBS) -ldl -lpthread -lm

.PHONY: all fatbins test examples shared bench info install uninstall clean
all: fatbins $(BUILD)/examples/quickstart info

fatbins: $(CUB_LIB) $(FATBINS) $(BUILD)/gpuarr_fatbins.o

# --- CUB glue: kernels/cub/*.cu -> build/cub/*.o -> build/libgpuarr_cub.a ----
$(BUILD)/cub/archs: archs-note
	@mkdir -p $(@D)
	@echo '$(CUB_GENCODE) $(CUB_NVCCFLAGS)' | cmp -s - $@ || echo '$(CUB_GENCODE) $(CUB_NVCCFLAGS)' > $@

# The glue sees gpuarr.h's types (>>config, >>types) and Kernel ABI (>>abi) only: a
# copy of those sections of the declaration half (each from its mark to the
# next mark; >>abi up to its `#endif /* Kernel ABI */`), rewritten only when
# they change, is what it depends on.
$(BUILD)/cub/abi.h: gpuarr.h Makefile
	@mkdir -p $(@D)
	@awk '/^\/\* >>[a-z0-9_]+ \*\/$$/ { keep = ($$2 == ">>config" || $$2 == ">>types" || $$2 == ">>abi") } \
	     keep { print } /^#endif \/\* Kernel ABI \*\/$$/ { exit }' $< > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(BUILD)/cub/%.o: kernels/cub/%.cu $(wildcard kernels/cub/*.cuh) $(BUILD)/cub/abi.h $(BUILD)/cub/archs
	$(NVCC) $(CUB_NVCCFLAGS) $(CUB_GENCODE) -c -o $@ $<

$(CUB_LIB): $(CUB_OBJS)
	rm -f $@
	ar rcs $@ $^

# --- kernel families: kernels/*.cu -> build/kernels/<family>.fatbin ---------
# The arch list is part of the recipe: changing it rebuilds.
$(BUILD)/kernels/archs: archs-note
	@mkdir -p $(@D)
	@echo '$(GENCODE) $(GENCODE_PDL) $(NVCCFLAGS)' | cmp -s - $@ || echo '$(GENCODE) $(GENCODE_PDL) $(NVCCFLAGS)' > $@

$(BUILD)/kernels/%.fatbin: kernels/%.cu $(wildcard kernels/*.cuh) gpuarr.h $(BUILD)/kernels/archs
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) --fatbin $(if $(filter $*,$(PDL_FAMILIES)),$(GENCODE_PDL),$(GENCODE)) -o $@ $<

# The fatbins linked into a program (GPUARR_EMBED_FATBINS).
$(BUILD)/gpuarr_fatbins.c: $(FATBINS) tools/embed_fatbins.sh
	sh tools/embed_fatbins.sh $@ $(FATBINS)
$(BUILD)/gpuarr_fatbins.o: $(BUILD)/gpuarr_fatbins.c
	$(CC) -c -o $@ $<

# Which archs, and why (once per make run that builds kernels).
.PHONY: archs-note
archs-note:
	@echo 'gpuarr: SASS for $(GPUARR_ARCHS) -- $(archs_why)'

# --- library forms -----------------------------------------------------------
shared: $(BUILD)/libgpuarr.so fatbins
$(BUILD)/libgpuarr.so: tools/gpuarr.c gpuarr.h $(CUB_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -fPIC -shared -o $@ $< $(LDLIBS)

# --- programs -----------------------------------------------------------------
# A program needs the CUB archive to link, not the fatbins (loaded when it
# runs), and its object not even the archive: the examples and gpuarr-info
# compile beside the kernels, so a first build ends soon after its longest
# kernel step (`make examples` still builds the fatbins too). Their objects
# wait for the kernels' arch stamps only so that the kernels, met first,
# take the cores first.
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
$(BUILD)/examples/%.o: examples/%.c gpuarr.h | $(BUILD)/kernels/archs $(BUILD)/cub/archs
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -c -o $@ $<
$(BUILD)/examples/%: $(BUILD)/examples/%.o $(CUB_LIB)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)
.SECONDARY: $(EXAMPLES:%=%.o) # (kept, not removed as intermediate files)

# The user-kernel project (examples/user_kernels/): built by its own
# Makefile, which includes gpuarr.mk as a user's would.
USER_EXAMPLE := $(BUILD)/examples/user_kernels/user_kernels
EXAMPLES += $(USER_EXAMPLE)
$(USER_EXAMPLE): examples/user_kernels/main.c examples/user_kernels/kernels.cu examples/user_kernels/Makefile \
    gpuarr.mk gpuarr.h $(wildcard kernels/*.cuh) $(CUB_LIB)
	$(MAKE) --no-print-directory -C examples/user_kernels GPUARR_HOME=$(CURDIR) OUT=$(abspath $(@D)) \
	    GPUARR_ARCHS='$(GPUARR_ARCHS)' CC='$(CC)'

# The MPI example (examples/mpi/: NCCL's unique id sent by MPI_Bcast, one
# process per GPU; run with `mpirun -np 2`), built where mpicc is found
# (Debian's libopenmpi-dev; CI installs it).
MPICC ?= mpicc
have_mpicc := $(shell command -v $(MPICC) 2> /dev/null)
ifneq ($(have_mpicc),)
  EXAMPLES += $(BUILD)/examples/mpi/nccl_mpi
endif
$(BUILD)/examples/mpi/%: examples/mpi/%.c gpuarr.h $(CUB_LIB)
	@mkdir -p $(@D)
	$(MPICC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -o $@ $< $(LDLIBS)

# (after the user-kernel project and the MPI example join the list: a
# rule's prerequisites are expanded where the rule is read)
examples: $(EXAMPLES) fatbins

info: $(BUILD)/gpuarr-info
$(BUILD)/gpuarr-info.o: tools/gpuarr-info.c gpuarr.h | $(BUILD)/kernels/archs $(BUILD)/cub/archs
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -c -o $@ $<
$(BUILD)/gpuarr-info: $(BUILD)/gpuarr-info.o $(CUB_LIB)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)

$(BUILD)/bench: tools/bench.c gpuarr.h $(CUB_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O3 $(WARN) -std=c11 -o $@ $< $(LDLIBS)

# the user kernels of `build/bench --kernels`, built by gpuarr.mk's rule
$(BUILD)/bench_kernels.fatbin: tools/bench_kernels.cu $(GPUARR_USER_DEPS) $(BUILD)/kernels/archs
	$(gpuarr_fatbin)

bench: $(BUILD)/bench fatbins $(BUILD)/bench_kernels.fatbin
	python3 tools/bench.py $(BUILD)/bench $(BENCH_ARGS)

# --- tests --------------------------------------------------------------------
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
$(BUILD)/tests/%: tests/%.c tests/harness.h gpuarr.h $(wildcard tests/*.h) $(CUB_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -o $@ $< $(LDLIBS)

# The random kernels' sampling algorithms (kernels/random_*.cuh) compiled
# for the host and tested there: no GPU, no CUDA headers.
TESTS += $(BUILD)/tests/test_random_alg
$(BUILD)/tests/test_random_alg: tests/test_random_alg.cc kernels/random_philox.cuh kernels/random_dists.cuh
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -I. -o $@ $< -lm

# The user kernels' test module, built by gpuarr.mk's rule as a user's
# project builds its own; and a module without gpuarr's headers, as PTX.
USER_TEST_MODULES := $(BUILD)/tests/user_kernels.fatbin $(BUILD)/tests/user_raw.ptx
$(BUILD)/tests/user_kernels.fatbin: tests/user_kernels.cu $(GPUARR_USER_DEPS) $(BUILD)/kernels/archs
	$(gpuarr_fatbin)
$(BUILD)/tests/user_raw.ptx: tests/user_raw.cu
	@mkdir -p $(@D)
	$(NVCC) --ptx -arch=$(gpuarr_ptx_arch) -o $@ $<

# A fatbin stamped with another version, for the stale-fatbin test.
$(BUILD)/tests/stale/creation.fatbin: tests/stale_fatbin.cu
	@mkdir -p $(@D)
	$(NVCC) --fatbin -gencode arch=compute_75,code=compute_75 -o $@ $<

# --- sanitizers: the test programs with host tests (a `TEST(` line), built
# by gcc with AddressSanitizer (leaks included) and UBSan (any undefined
# behaviour stops the program), in build/asan/. -O0: under half the compile
# time of -O1. Warnings are not errors here: the normal build is the one that
# keeps them out, and gcc warns differently with the sanitizers on (it loses
# the range of snprintf's arguments: -Wformat-truncation, off here).
# tests/run.sh runs them without the CUDA driver on every machine, so only
# their host tests run (see there for why).
SAN_CC ?= gcc
SAN_CXX ?= g++
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
lparen := (
ASAN_TESTS := $(patsubst tests/%.c,$(BUILD)/asan/tests/%,$(shell grep -l '^TEST$(lparen)' tests/test_*.c))
$(BUILD)/asan/tests/%: tests/%.c tests/harness.h gpuarr.h $(wildcard tests/*.h) $(CUB_LIB)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O0 -g $(SANFLAGS) -Wall -Wextra -Wpedantic -Wno-format-truncation -std=c11 -o $@ $< $(LDLIBS)

# test_linalg with the CUDA libraries taken from the link
# (GPUARR_LINK_CUDA_LIBRARIES) instead of dlopen: against the shared
# libraries, and against the toolkit's static archives where it has them
# (one self-contained binary; the README's link lines); test_io (its host
# tests inflate and deflate) against the shared ones. zlib comes from the
# link too (-lz) where zlib.h is installed (zlib1g-dev); where it is not,
# these programs keep opening it at run time (GPUARR_ZLIB_DLOPEN), and the
# tests say so.
CUDA_LIB_DIR := $(CUDA_HOME)/lib64
have_zlib_h := $(shell printf '\043include <zlib.h>\n' | $(CC) -E -x c - > /dev/null 2>&1 && echo yes)
LINK_ZLIB_FLAGS := $(if $(have_zlib_h),,-DGPUARR_ZLIB_DLOPEN)
LINK_ZLIB_LIBS := $(if $(have_zlib_h),-lz)
# NCCL from the link needs nccl.h and libnccl.so (NCCL's own package, not
# the toolkit's; in its lib64/ or lib/): where they are missing, the linked
# programs leave the NCCL section out (GPUARR_NO_NCCL), and test_nccl is not
# built linked. The dlopen build needs neither.
have_nccl_h := $(shell printf '\043include <nccl.h>\n' | $(CC) -I$(CUDA_HOME)/include -E -x c - > /dev/null 2>&1 && echo yes)
NCCL_LIB_DIR := $(patsubst %/,%,$(firstword $(dir $(wildcard $(CUDA_LIB_DIR)/libnccl.so $(CUDA_HOME)/lib/libnccl.so))))
have_nccl := $(if $(have_nccl_h),$(NCCL_LIB_DIR))
LINK_NCCL_FLAGS := $(if $(have_nccl),,-DGPUARR_NO_NCCL)
LINK_NCCL_LIBS := $(if $(have_nccl),-L$(NCCL_LIB_DIR) -Wl$(comma)-rpath$(comma)$(NCCL_LIB_DIR) -lnccl)
LINK_SHARED_LIBS := -L$(CUDA_LIB_DIR) -Wl,-rpath,$(CUDA_LIB_DIR) -lcusolver -lcublas -lcublasLt -lcufft -lcusparse $(LINK_NCCL_LIBS) $(LINK_ZLIB_LIBS)
# (cuSOLVER's static archive needs its LAPACK part and cuSPARSE's where the
# toolkit splits them out; cuSPARSE's archive needs nvJitLink's since CUDA 12,
# and nvJitLink's the PTX compiler's: each added where the toolkit has it, an
# archive adding nothing a program does not use. cuFFT stays shared here
# (LINK_STATIC_CUFFT) but for test_fft's static link below: its archive is a
# third of a GB. NCCL stays shared: the toolkit ships libnccl.so.2 only.)
LINK_STATIC_CUFFT = -lcufft
LINK_STATIC_LIBS = -L$(CUDA_LIB_DIR) -lcusolver_static \
    $(if $(wildcard $(CUDA_LIB_DIR)/libcusolver_lapack_static.a),-lcusolver_lapack_static) \
    $(if $(wildcard $(CUDA_LIB_DIR)/libcusparse_static.a),-lcusparse_static) -lcublas_static -lcublasLt_static -lculibos \
    $(if $(wildcard $(CUDA_LIB_DIR)/libnvJitLink_static.a),-lnvJitLink_static) \
    $(if $(wildcard $(CUDA_LIB_DIR)/libnvptxcompiler_static.a),-lnvptxcompiler_static) \
    -Wl,-rpath,$(CUDA_LIB_DIR) $(LINK_STATIC_CUFFT) $(LINK_NCCL_LIBS) $(LINK_ZLIB_LIBS)
# cuFFT's static archive holds relocatable device code (its callbacks),
# which only nvcc's device link resolves (a plain link ends in undefined
# __cudaRegisterLinkedBinary_... symbols): a stub compiled with -rdc, its
# device link against the archive for the archs built, and the archive make
# a program fully static (README, Embedding and linking).
CUFFT_DLINK_GENCODE = $(foreach a,$(GPUARR_ARCHS),-gencode arch=compute_$(patsubst sm_%,%,$(a)),code=$(a))
CUFFT_STATIC_OBJS := $(BUILD)/cufft_static/stub.o $(BUILD)/cufft_static/dlink.o
$(BUILD)/cufft_static/stub.o: tools/cufft_dlink_stub.cu $(BUILD)/kernels/archs
	@mkdir -p $(@D)
	$(NVCC) -rdc=true $(CUFFT_DLINK_GENCODE) -c -o $@ $<
$(BUILD)/cufft_static/dlink.o: $(BUILD)/cufft_static/stub.o
	$(NVCC) -dlink $(CUFFT_DLINK_GENCODE) -o $@ $< -L$(CUDA_LIB_DIR) -lcufft_static -lculibos
$(BUILD)/tests/static/test_fft: LINK_STATIC_CUFFT = $(CUFFT_STATIC_OBJS) -lcufft_static -lculibos
$(BUILD)/tests/static/test_fft: $(CUFFT_STATIC_OBJS)
LINKED_TESTS := $(BUILD)/tests/linked/test_linalg $(BUILD)/tests/linked/test_io $(BUILD)/tests/linked/test_fft $(BUILD)/tests/linked/test_sparse \
    $(if $(have_nccl),$(BUILD)/tests/linked/test_nccl)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcublas_static.a),)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcusolver_static.a),)
  LINKED_TESTS += $(BUILD)/tests/static/test_linalg
endif
endif
# (test_fft's: cuFFT's archive too, device-linked)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcufft_static.a),)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcusparse_static.a),)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcublas_static.a),)
  LINKED_TESTS += $(BUILD)/tests/static/test_fft
endif
endif
endif
# (test_sparse's static link: cuSPARSE's archive, where the toolkit has it)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcusparse_static.a),)
ifneq ($(wildcard $(CUDA_LIB_DIR)/libcublas_static.a),)
  LINKED_TESTS += $(BUILD)/tests/static/test_sparse
endif
endif
$(BUILD)/tests/linked/%: tests/%.c tests/harness.h gpuarr.h $(wildcard tests/*.h) $(CUB_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -DGPUARR_LINK_CUDA_LIBRARIES $(LINK_ZLIB_FLAGS) $(LINK_NCCL_FLAGS) -o $@ $< \
	    $(CUB_LIB) $(LINK_SHARED_LIBS) $(LDLIBS)
$(BUILD)/tests/static/%: tests/%.c tests/harness.h gpuarr.h $(wildcard tests/*.h) $(CUB_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -DGPUARR_LINK_CUDA_LIBRARIES $(LINK_ZLIB_FLAGS) $(LINK_NCCL_FLAGS) -o $@ $< \
	    $(CUB_LIB) $(LINK_STATIC_LIBS) $(LDLIBS)

# Every program `make` and `make shared` / `make bench` build: built by `make
# test` too, so that none stops compiling unseen.
PROGRAMS := $(EXAMPLES) $(BUILD)/gpuarr-info $(BUILD)/bench $(BUILD)/libgpuarr.so

# `make test` installs into build/test-prefix (with `make install`) and
# tests/run.sh builds programs against it through pkg-config.
TEST_PREFIX := $(abspath $(BUILD))/test-prefix
test: fatbins $(TESTS) $(PROGRAMS) $(ASAN_TESTS) $(LINKED_TESTS) $(BUILD)/tests/stale/creation.fatbin $(USER_TEST_MODULES)
	@rm -rf $(TEST_PREFIX)
	@$(MAKE) --no-print-directory install PREFIX=$(TEST_PREFIX) GPUARR_ARCHS='$(GPUARR_ARCHS)' \
	    > $(BUILD)/test-install.log 2>&1 || { cat $(BUILD)/test-install.log; exit 1; }
	@GPUARR_ARCHS='$(GPUARR_ARCHS)' TEST_PREFIX='$(TEST_PREFIX)' ASAN_TESTS='$(ASAN_TESTS)' LINKED_TESTS='$(LINKED_TESTS)' LINKED_ZLIB='$(if $(have_zlib_h),yes,no)' SAN_CC='$(SAN_CC)' SAN_CXX='$(SAN_CXX)' \
	    SANFLAGS='$(SANFLAGS)' sh tests/run.sh $(TESTS)

# --- sanitize: the device tests under compute-sanitizer (GPU machines) -------
# SANITIZE_TOOLS picks among memcheck racecheck synccheck initcheck; see
# tests/sanitize.sh for which programs each checks.
SANITIZE_TOOLS ?= memcheck racecheck synccheck initcheck
.PHONY: sanitize
sanitize: fatbins $(TESTS) $(BUILD)/tests/stale/creation.fatbin $(USER_TEST_MODULES) $(BUILD)/libgpuarr.so
	@sh tests/sanitize.sh $(SANITIZE_TOOLS)

# check-device: the same runs without a sanitizer, at full sizes (tool
# `none`): every test program, the long ones in SANITIZE_SHARDS parts, side
# by side; the quick check of the device tests on a GPU machine (`make test`
# runs them one after another, with the host checks). CFLAGS="-O0 -g0"
# builds the programs in seconds each; the kernels are the same.
.PHONY: check-device
check-device: fatbins $(TESTS) $(BUILD)/tests/stale/creation.fatbin $(USER_TEST_MODULES)
	@sh tests/sanitize.sh none

# --- install -------------------------------------------------------------------
# PREFIX/include/gpuarr.h, the header as it is;
# PREFIX/include/gpuarr/kernel_dir.h, which defines GPUARR_KERNEL_DIR as the
#   installed kernels' directory (gpuarr.pc's Cflags -include it: pkg-config
#   writes a -D of a quoted string escaped for a shell to read again, which
#   `cc $$(pkg-config ...)` does not do);
# PREFIX/lib/gpuarr/kernels/<family>.fatbin, the kernels; PREFIX/lib/gpuarr/
#   gpuarr_fatbins.o, the same linked into a program (GPUARR_EMBED_FATBINS);
# PREFIX/lib/libgpuarr_cub.a, the CUB glue;
# PREFIX/lib/pkgconfig/gpuarr.pc (from tools/gpuarr.pc.in);
# for users' kernels (>>kernel): PREFIX/share/gpuarr/gpuarr.mk, the build
#   rule, pointed at PREFIX/include/gpuarr/kernels/*.cuh, the kernel headers,
#   which include PREFIX/include/gpuarr/gpuarr.h, a copy of the header.
# DESTDIR is prepended to each path, for packaging; the files name PREFIX.
PREFIX ?= /usr/local
DESTDIR ?=
includedir := $(PREFIX)/include
libdir := $(PREFIX)/lib
kerneldir := $(libdir)/gpuarr/kernels
datadir := $(PREFIX)/share
# what a user's kernels are compiled against (gpuarr.mk): the kernel
# headers, and gpuarr.h beside them (they include "../gpuarr.h")
KERNEL_HEADERS := $(wildcard kernels/*.cuh)
VERSION := $(shell sed -n 's/^\#define GPUARR_VERSION_STRING "\(.*\)"$$/\1/p' gpuarr.h)

install: fatbins tools/gpuarr.pc.in
	install -d '$(DESTDIR)$(includedir)/gpuarr' '$(DESTDIR)$(kerneldir)' '$(DESTDIR)$(libdir)/pkgconfig'
	install -m 644 gpuarr.h '$(DESTDIR)$(includedir)/gpuarr.h'
	printf '/* Written by gpuarr'"'"'s `make install`: the installed kernels. */\n#ifndef GPUARR_KERNEL_DIR\n#define GPUARR_KERNEL_DIR "%s"\n#endif\n' \
	    '$(kerneldir)' > '$(DESTDIR)$(includedir)/gpuarr/kernel_dir.h'
	install -m 644 $(FATBINS) '$(DESTDIR)$(kerneldir)'
	install -m 644 $(BUILD)/gpuarr_fatbins.o '$(DESTDIR)$(libdir)/gpuarr/gpuarr_fatbins.o'
	install -m 644 $(CUB_LIB) '$(DESTDIR)$(libdir)/libgpuarr_cub.a'
	install -d '$(DESTDIR)$(includedir)/gpuarr/kernels' '$(DESTDIR)$(datadir)/gpuarr'
	install -m 644 gpuarr.h '$(DESTDIR)$(includedir)/gpuarr/gpuarr.h'
	install -m 644 $(KERNEL_HEADERS) '$(DESTDIR)$(includedir)/gpuarr/kernels'
	{ printf '# Written by gpuarr'"'"'s `make install`: the installed kernel headers.\nGPUARR_KERNEL_INCLUDE ?= %s\n' \
	    '$(includedir)/gpuarr/kernels'; cat gpuarr.mk; } > '$(DESTDIR)$(datadir)/gpuarr/gpuarr.mk'
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@CUDA_HOME@|$(CUDA_HOME)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    tools/gpuarr.pc.in > '$(DESTDIR)$(libdir)/pkgconfig/gpuarr.pc'
	@echo 'gpuarr: installed in $(DESTDIR)$(PREFIX); build with: cc app.c $$(pkg-config --cflags --libs gpuarr)' \
	    '(PKG_CONFIG_PATH=$(libdir)/pkgconfig if pkg-config does not look there)'

uninstall:
	rm -f '$(DESTDIR)$(includedir)/gpuarr.h' '$(DESTDIR)$(includedir)/gpuarr/kernel_dir.h' \
	    $(FAMILIES:%='$(DESTDIR)$(kerneldir)/%.fatbin') '$(DESTDIR)$(libdir)/gpuarr/gpuarr_fatbins.o' \
	    '$(DESTDIR)$(libdir)/libgpuarr_cub.a' '$(DESTDIR)$(libdir)/pkgconfig/gpuarr.pc'
	rm -f '$(DESTDIR)$(includedir)/gpuarr/gpuarr.h' $(KERNEL_HEADERS:kernels/%='$(DESTDIR)$(includedir)/gpuarr/kernels/%') \
	    '$(DESTDIR)$(datadir)/gpuarr/gpuarr.mk'
	-rmdir '$(DESTDIR)$(kerneldir)' '$(DESTDIR)$(libdir)/gpuarr' '$(DESTDIR)$(includedir)/gpuarr/kernels' \
	    '$(DESTDIR)$(includedir)/gpuarr' '$(DESTDIR)$(datadir)/gpuarr' 2> /dev/null

clean:
	rm -rf $(BUILD)
