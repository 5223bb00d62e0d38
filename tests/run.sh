#!/bin/sh
# Runs every test of `make test` and sums them into one closing line:
#   the section marks of gpuarr.h (tools/check_marks.sh), compile checks of
#   gpuarr.h (C11 with gcc and clang, C++ with g++ and clang++, warnings as
#   errors; with gcc and g++ also built with -fsanitize=address,undefined and
#   run) and of tests/random_stats.h alone, each test program given as an
#   argument, the same programs' host
#   tests built with the sanitizers ($ASAN_TESTS, from the Makefile), the
#   examples and tools (the quickstart's refusal without a GPU; valgrind over
#   the no-GPU paths), a program built through pkg-config against `make
#   install`'s tree ($TEST_PREFIX), and the NumPy conformance script when
#   numpy is importable, and the DLPack exchange with CuPy and PyTorch
#   (tests/dlpack_interop.py).
# Exit status 0 only if nothing failed.
set -u
passed=0 failed=0 skipped=0

count() { # adds the counts of a "N passed, N failed, N skipped" line in file $1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        echo "  (no summary line: counted as one failure)"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped$/\1/p')
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name, command...: passes if the command succeeds
    name=$1; shift
    if "$@" > "$tmp/out" 2>&1; then
        echo "ok   $name"; passed=$((passed + 1))
    else
        echo "FAIL $name"; sed 's/^/    /' "$tmp/out" | head -n 30; failed=$((failed + 1))
    fi
}

echo "== section marks"
check "gpuarr.h: the same marks in both halves, in the same order, each in the table of contents" \
    sh tools/check_marks.sh gpuarr.h

echo "== compile checks"
cat > "$tmp/impl.c" <<'SRC'
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
int main(void) { return ga_version() > 0 ? 0 : 1; }
SRC
cp "$tmp/impl.c" "$tmp/impl.cpp"
printf '#include "gpuarr.h"\n#include "gpuarr.h"\nint f(void);\nint f(void) { return (int)ga_dtype_itemsize(GA_FLOAT32); }\n' > "$tmp/decl.c"
# The stb pattern in one translation unit: the declarations first, then the
# implementation.
cat > "$tmp/stb.c" <<'SRC'
#include "gpuarr.h"
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
int main(void) { return ga_version() > 0 ? 0 : 1; }
SRC
cp "$tmp/stb.c" "$tmp/stb.cpp"
# The Kernel ABI (>>abi) is for the kernels and the glue: a plain include
# must not declare its types or functions.
printf '#include "gpuarr.h"\nint f(void);\nint f(void) { ga__copy_layout l; l.ndim = 1; return (int)l.ndim; }\n' > "$tmp/abi_type.c"
printf '#include "gpuarr.h"\nint f(void);\nint f(void) { return ga__cub_version(); }\n' > "$tmp/abi_func.c"
CUDA_INC=${CUDA_HOME:-/usr/local/cuda}/include
W="-Wall -Wextra -Wpedantic -Werror"
abi_hidden() { # cc: each file fails to compile, naming its identifier, with a
               # plain include, and compiles with GPUARR_KERNEL_ABI (so it
               # failed for that reason alone)
    bad=0
    for f in abi_type:ga__copy_layout abi_func:ga__cub_version; do
        src=$tmp/${f%%:*}.c ident=${f#*:}
        if $1 -std=c11 $W -I. -c -o "$tmp/abi.o" "$src" > "$tmp/abi.out" 2>&1; then
            echo "$ident compiled with a plain include of gpuarr.h:"; cat "$src"; bad=1
        elif ! grep -q "$ident" "$tmp/abi.out"; then
            echo "$(basename "$src") failed to compile, but not on $ident:"; cat "$tmp/abi.out"; bad=1
        fi
        if ! $1 -std=c11 $W -DGPUARR_KERNEL_ABI -I. -c -o "$tmp/abi.o" "$src" > "$tmp/abi.out" 2>&1; then
            echo "$(basename "$src") does not compile with GPUARR_KERNEL_ABI either:"; cat "$tmp/abi.out"; bad=1
        fi
    done
    return $bad
}
# Every program links the CUB glue archive and the static CUDA runtime.
CUB_LIBS="build/libgpuarr_cub.a -L${CUDA_HOME:-/usr/local/cuda}/lib64 -lcudart_static -lstdc++ -lrt"
for cc in gcc clang; do
    if command -v $cc > /dev/null; then
        check "$cc C11 implementation" $cc -std=c11 $W -I. -I"$CUDA_INC" -o "$tmp/a" "$tmp/impl.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 implementation -O3" $cc -std=c11 $W -O3 -I. -I"$CUDA_INC" -o "$tmp/a3" "$tmp/impl.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 declarations only (no cuda.h)" $cc -std=c11 $W -I. -c -o "$tmp/d.o" "$tmp/decl.c"
        check "$cc C11 implementation without linear algebra (GPUARR_NO_LINALG)" $cc -std=c11 $W -DGPUARR_NO_LINALG -I. -I"$CUDA_INC" -c -o "$tmp/n.o" "$tmp/impl.c"
        check "$cc C11 implementation without NCCL (GPUARR_NO_NCCL)" $cc -std=c11 $W -DGPUARR_NO_NCCL -I. -I"$CUDA_INC" -c -o "$tmp/nn.o" "$tmp/impl.c"
        check "$cc C11 static implementation" $cc -std=c11 $W -DGPUARR_STATIC -Wno-unused-function -I. -I"$CUDA_INC" -o "$tmp/s" "$tmp/impl.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 plain include, then GPUARR_IMPLEMENTATION and include again" $cc -std=c11 $W -I. -I"$CUDA_INC" -o "$tmp/stb" "$tmp/stb.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 plain include hides the Kernel ABI (ga__copy_layout, ga__cub_version: expected failures)" abi_hidden $cc
    else
        echo "skip $cc (not installed)"; skipped=$((skipped + 8))
    fi
done
for cxx in g++ clang++; do
    if command -v $cxx > /dev/null; then
        check "$cxx C++17 implementation" $cxx -std=c++17 -Wall -Wextra -Werror -I. -I"$CUDA_INC" -o "$tmp/b" "$tmp/impl.cpp" $CUB_LIBS -ldl -lpthread
        check "$cxx C++17 plain include, then GPUARR_IMPLEMENTATION and include again" $cxx -std=c++17 -Wall -Wextra -Werror -I. -I"$CUDA_INC" -o "$tmp/stbxx" "$tmp/stb.cpp" $CUB_LIBS -ldl -lpthread
    else
        echo "skip $cxx (not installed)"; skipped=$((skipped + 2))
    fi
done

# tests/random_stats.h, the toolkit that judges the random draws, on its own
# (it needs the C library only): C11 and C++17, warnings as errors, run.
printf '#include "random_stats.h"\n#include "random_stats.h"\nint main(void) { return ga_stats_find("normal") ? 0 : 1; }\n' \
    > "$tmp/stats.c"
for cc in "gcc -std=c11" "clang -std=c11" "g++ -std=c++17 -x c++" "clang++ -std=c++17 -x c++"; do
    if command -v "${cc%% *}" > /dev/null; then
        check "$cc tests/random_stats.h alone" sh -c '$1 $2 -Itests -o "$3" "$4" -lm && "$3"' sh "$cc" "$W" \
            "$tmp/stats" "$tmp/stats.c"
    else
        echo "skip $cc tests/random_stats.h (${cc%% *} not installed)"; skipped=$((skipped + 1))
    fi
done

# The same programs built with AddressSanitizer (leaks too) and UBSan, and
# run: without the CUDA driver (see the sanitizers' section below).
SAN_CC=${SAN_CC:-gcc} SAN_CXX=${SAN_CXX:-g++}
SANFLAGS=${SANFLAGS:--fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer}
no_driver=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
[ -f "$no_driver" ] || no_driver=/nonexistent/libcuda.so.1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p build/asan/checks
for pair in "$SAN_CC:impl.c" "$SAN_CXX:impl.cpp"; do
    cc=${pair%%:*} src=${pair#*:}
    if command -v "$cc" > /dev/null; then
        check "$cc $src built with -fsanitize=address,undefined, runs" sh -c '"$1" $2 -O0 -g -I. -I"$3" -o "$4" "$5" $6 -ldl -lpthread -lm &&
            GPUARR_DRIVER_LIBRARY="$7" "$4"' sh "$cc" "$SANFLAGS" "$CUDA_INC" "build/asan/checks/${src%.*}_${src#*.}" \
            "$tmp/$src" "$CUB_LIBS" "$no_driver"
    else
        echo "skip $cc $src with the sanitizers ($cc not installed)"; skipped=$((skipped + 1))
    fi
done

# The kernels linked into the program: it must run from anywhere, with no
# kernel directory to find.
if [ -f build/gpuarr_fatbins.o ]; then
    check "gcc embedded fatbins (GPUARR_EMBED_FATBINS)" gcc -std=c11 $W -DGPUARR_EMBED_FATBINS -I. -I"$CUDA_INC" \
        -o "$tmp/embedded" examples/quickstart.c build/gpuarr_fatbins.o $CUB_LIBS -ldl -lpthread -lm
    if [ -x "$tmp/embedded" ]; then
        (cd "$tmp" && GPUARR_KERNEL_DIR=/nonexistent ./embedded > out.embedded 2>&1)
        rc=$?
        if grep -q "cannot use the GPU" "$tmp/out.embedded"; then
            echo "skip embedded quickstart run (no GPU)"; skipped=$((skipped + 1))
        elif [ $rc -eq 0 ]; then
            echo "ok   embedded quickstart runs with no kernel directory"; passed=$((passed + 1))
        else
            echo "FAIL embedded quickstart"; sed 's/^/    /' "$tmp/out.embedded" | tail -n 20; failed=$((failed + 1))
        fi
    fi
fi

# The CUB glue archive linked with the static and with the shared CUDA
# runtime: each program sorts, scans and finds the unique values on the GPU.
cat > "$tmp/glue.c" <<'SRC'
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include <stdio.h>
int main(void)
{
    if (ga_init() != GA_OK) {
        printf("cannot use the GPU: %s\n", ga_last_error_message());
        return 2;
    }
    const float h[5] = {3, -1, 2, -1, 0};
    float s[5], c[5];
    ga_array *a = ga_from_host(h, GA_SHAPE(5), GA_FLOAT32);
    ga_array *sorted = ga_sort(a, 0), *sums = ga_cumsum(a, 0, GA_DTYPE_INVALID);
    ga_array *values = ga_unique(a, NULL, NULL, NULL, true);
    if (!sorted || !sums || !values || ga_to_host(sorted, s, sizeof s) != GA_OK ||
        ga_to_host(sums, c, sizeof c) != GA_OK) {
        printf("%s\n", ga_last_error_message());
        return 1;
    }
    int ok = s[0] == -1 && s[1] == -1 && s[2] == 0 && s[3] == 2 && s[4] == 3 && c[4] == 3 && ga_size(values) == 4;
    printf("%s (CUB %d)\n", ok ? "right results" : "wrong results", ga_cub_version());
    return ok ? 0 : 1;
}
SRC
CUDA_LIB=${CUDA_HOME:-/usr/local/cuda}/lib64
for rt in static shared; do
    if [ $rt = static ]; then runtime=-lcudart_static; else runtime="-lcudart -Wl,-rpath,$CUDA_LIB"; fi
    check "gcc glue archive with the $rt CUDA runtime" gcc -std=c11 $W -I. -I"$CUDA_INC" -o "$tmp/glue_$rt" \
        "$tmp/glue.c" build/libgpuarr_cub.a -L"$CUDA_LIB" $runtime -lstdc++ -lrt -ldl -lpthread -lm
    if [ -x "$tmp/glue_$rt" ]; then
        (cd "$tmp" && ./glue_$rt > out.glue 2>&1)
        rc=$?
        if grep -q "cannot use the GPU" "$tmp/out.glue"; then
            echo "skip glue program run, $rt runtime (no GPU)"; skipped=$((skipped + 1))
        elif [ $rc -eq 0 ]; then
            echo "ok   glue program runs, $rt runtime: $(cat "$tmp/out.glue")"; passed=$((passed + 1))
        else
            echo "FAIL glue program, $rt runtime"; sed 's/^/    /' "$tmp/out.glue" | tail -n 20; failed=$((failed + 1))
        fi
    fi
done

for t in "$@"; do
    echo "== $t"
    "$t" > "$tmp/log" 2>&1
    cat "$tmp/log"
    count "$tmp/log"
done

# `make sanitize` splits a program with GPUARR_TEST_SHARD=i/n: the shards
# of test_host together run each of its tests once. The leak check at exit
# (nothing_left_in_use_at_exit) belongs to every shard, so it is left out.
shards_cover() { # program: the names of 0/3, 1/3 and 2/3 are the whole run's
    names() { grep -E '^(ok|FAIL) ' | sed -E 's/^(ok|FAIL) +([A-Za-z0-9_]+).*/\2/' |
              grep -v '^nothing_left_in_use_at_exit$' | sort; }
    "$1" 2> /dev/null | names > "$tmp/all"
    for i in 0 1 2; do GPUARR_TEST_SHARD=$i/3 "$1" 2> /dev/null | names; done | sort > "$tmp/shards"
    [ -s "$tmp/all" ] && cmp -s "$tmp/all" "$tmp/shards"
}
for t in "$@"; do
    case $t in
    */test_host) echo "== GPUARR_TEST_SHARD"
                 check "GPUARR_TEST_SHARD=i/3 for i = 0, 1, 2 runs each test of $t once" shards_cover "$t" ;;
    esac
done

# The host tests under AddressSanitizer and UBSan (build/asan/tests/, built
# by the Makefile with gcc -fsanitize=address,undefined
# -fno-sanitize-recover=undefined): an invalid access, a leak at exit or any
# undefined behaviour ends the program with a report and a nonzero status.
# They run with GPUARR_DRIVER_LIBRARY naming the toolkit's stub libcuda.so
# (ga_init opens it, finds no driver in it and fails cleanly), on every
# machine: their device tests skip, and are not counted here. The driver is
# kept out because it does not run under ASan as is (it maps memory in the
# shadow gap, which ASan protects: CUDA programs need
# ASAN_OPTIONS=protect_shadow_gap=0, and LeakSanitizer reports the driver's
# own allocations; github.com/google/sanitizers/issues/629), which a machine
# without a GPU cannot check; the device
# paths are the normal build's to test. The static CUDA runtime linked in
# is no obstacle: without a GPU it never initialises (a cudart call under
# ASan returns cudaErrorInsufficientDriver with nothing reported).
for t in ${ASAN_TESTS:-}; do
    echo "== $t (gcc -fsanitize=address,undefined; host tests only)"
    GPUARR_DRIVER_LIBRARY=$no_driver "$t" > "$tmp/log" 2>&1
    rc=$?
    grep -v '^no GPU here' "$tmp/log"
    before=$failed
    skipped_before=$skipped
    count "$tmp/log"
    skipped=$skipped_before
    if [ $rc -ne 0 ] && [ $failed -eq $before ]; then
        echo "FAIL $t exited with status $rc (a sanitizer's report above)"; failed=$((failed + 1))
    fi
done

echo "== examples and tools"
# The quickstart documents its refusal: status 1, nothing on stdout, and
# "quickstart: cannot use the GPU: <why>" on stderr; with a GPU it runs to
# the end, status 0. Run away from ./build/kernels: it finds the kernels
# through the GPUARR_KERNEL_DIR macro.
root=$(pwd)
(cd "$tmp" && "$root/build/examples/quickstart" > out.quickstart 2> err.quickstart)
rc=$?
if grep -q '^quickstart: cannot use the GPU: ' "$tmp/err.quickstart"; then
    gpu=no
    if [ $rc -eq 1 ] && [ ! -s "$tmp/out.quickstart" ]; then
        echo "ok   quickstart refuses cleanly without a GPU: $(head -n 1 "$tmp/err.quickstart")"; passed=$((passed + 1))
    else
        echo "FAIL quickstart's refusal: status $rc (wanted 1), stdout:"; sed 's/^/    /' "$tmp/out.quickstart"
        failed=$((failed + 1))
    fi
else
    gpu=yes
    if [ $rc -eq 0 ]; then
        echo "ok   quickstart runs to the end"; passed=$((passed + 1))
    else
        echo "FAIL quickstart (status $rc)"; cat "$tmp/out.quickstart" "$tmp/err.quickstart" | sed 's/^/    /' | tail -n 20
        failed=$((failed + 1))
    fi
fi

# run_example PATH WHAT PROGRAM ARGS...: runs build/examples/PATH with ARGS
# away from ./build (it finds the kernels through GPUARR_KERNEL_DIR). Without
# a GPU it must refuse as the quickstart does (status 1, "NAME: cannot use
# the GPU: " on stderr); with one, exit 0 and pass `check_NAME OUT`, a
# function below that reads its stdout (OUT) and prints what the ok line
# shows. WHAT names the check in that line.
run_example() {
    path=$1 what=$2; shift 2
    name=$(basename "$path")
    (cd "$tmp" && "$root/build/examples/$path" "$@" > "out.$name" 2> "err.$name")
    rc=$?
    if [ $gpu = no ]; then
        if [ $rc -eq 1 ] && grep -q "^$name: cannot use the GPU: " "$tmp/err.$name"; then
            echo "ok   $name refuses cleanly without a GPU"; passed=$((passed + 1))
        else
            echo "FAIL $name's refusal: status $rc"; cat "$tmp/out.$name" "$tmp/err.$name" | sed 's/^/    /'
            failed=$((failed + 1))
        fi
    elif [ $rc -eq 0 ] && shown=$("check_$name" "$tmp/out.$name"); then
        echo "ok   $name $what: $shown"; passed=$((passed + 1))
    else
        echo "FAIL $name (status $rc)"; cat "$tmp/out.$name" "$tmp/err.$name" | sed 's/^/    /'; failed=$((failed + 1))
    fi
}

# The fit of 1 + 2 x - 3 x^2 (noise 0.01) from 1000 points, within 0.05.
check_least_squares() {
    awk '/^  y =/ { c0 = $3; c1 = $5; c2 = $7 }
        END { d = (c0 - 1)^2 + (c1 - 2)^2 + (c2 + 3)^2; exit !(c0 != "" && d < 0.0025) }' "$1" && grep '^  y =' "$1"
}
# The user-kernel project (examples/user_kernels/, built by its own Makefile
# through gpuarr.mk, its module embedded): its fused softplus,
# normalise-and-clip, reduction-kernel row norms, fused sum((x - y)**2) and
# raw-kernel L2 norm match gpuarr's built-ins.
check_user_kernels() { grep -q '^all five match' "$1" && tr '\n' ' ' < "$1"; }
# The Monte Carlo price of 2^22 paths within 5 standard errors of Black-Scholes.
check_option_price() {
    awk '/standard errors away/ { gsub(/\(/, "", $3); z = $3 } END { exit !(z != "" && z + 0 < 5) }' "$1" &&
        grep 'standard errors' "$1"
}
# cg on the 127 x 127 grid converges, u at the centre within 1e-3 of the
# continuous problem's 0.073671.
check_poisson_cg() {
    awk '/u\(1\/2, 1\/2\) =/ { u = $4 } END { d = u - 0.073671; exit !(u != "" && d * d < 1e-6) }' "$1" &&
        grep 'u(1/2' "$1" | sed 's/^ *//'
}
# Every GPU's all_reduced total of 2^26 + 5 elements equals the host's sum.
check_nccl_sum() {
    awk '/GPUs? match the host/ { ok = ($1 == $3 && $1 > 0) } END { exit !ok }' "$1" && tr '\n' ' ' < "$1"
}
# One rank's all_reduce (its own array) read back unchanged.
check_nccl_mpi() { grep -q '^all_reduce over 1 ranks matches the host' "$1" && grep '^rank' "$1"; }
# 1000 steps replayed from one captured graph give the bits of 1000 steps
# called directly (difference 0, the heat conserved).
check_heat_graph() { grep -q 'max difference 0$' "$1" && grep 'step, graph launch' "$1"; }

run_example least_squares "fits 1 + 2 x - 3 x^2" 1000 2
run_example user_kernels/user_kernels "match the built-ins"
run_example option_price "agrees with Black-Scholes" 4194304 7
run_example poisson_cg "converges" 127
run_example heat_graph "replays match direct steps" 4096 1000
# NCCL's examples (NVLink multicast off: NCCL_NVLS_ENABLE=0, which they set
# themselves when it is unset).
run_example nccl_sum "matches the host on every GPU" 67108869
if [ -x build/examples/mpi/nccl_mpi ]; then
    # alone (MPI's singleton start, one rank); with two GPUs or more, also
    # under mpirun with two ranks
    run_example mpi/nccl_mpi "all_reduce of one rank" 1000003
    ngpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
    if [ $gpu = yes ] && [ "$ngpus" -ge 2 ] && command -v mpirun > /dev/null 2>&1; then
        (cd "$tmp" && NCCL_NVLS_ENABLE=0 mpirun --allow-run-as-root --oversubscribe -np 2 -x NCCL_NVLS_ENABLE \
            "$root/build/examples/mpi/nccl_mpi" 1000003 > out.mpirun 2> err.mpirun)
        rc=$?
        if [ $rc -eq 0 ] && grep -q '^all_reduce over 2 ranks matches the host' "$tmp/out.mpirun"; then
            echo "ok   nccl_mpi under mpirun -np 2: $(grep '^all_reduce' "$tmp/out.mpirun")"; passed=$((passed + 1))
        else
            echo "FAIL nccl_mpi under mpirun -np 2 (status $rc)"; cat "$tmp/out.mpirun" "$tmp/err.mpirun" | sed 's/^/    /' | tail -n 20
            failed=$((failed + 1))
        fi
    fi
fi

# valgrind over the no-GPU paths: each program's refusal (with no driver
# library, and with the toolkit's stub one, which is opened and closed) must
# make no invalid access and lose no memory. Its own exit status is checked
# beside valgrind's (99: valgrind found errors). With a GPU the driver would
# be under valgrind too, which it confuses: skipped.
valgrind_check() { # name, expected status, expected text on stdout or stderr, program, args...
                   # (and $vg_env: the program's environment, as NAME=value)
    name=$1 want=$2 text=$3; shift 3
    if env ${vg_env:-} valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" > "$tmp/vg.out" 2> "$tmp/vg.err"; then rc=0; else rc=$?; fi
    if [ $rc -eq "$want" ] && grep -q "$text" "$tmp/vg.out" "$tmp/vg.err"; then
        echo "ok   valgrind $name: no errors, no leaks, status $rc"; passed=$((passed + 1))
    else
        echo "FAIL valgrind $name: status $rc (wanted $want and \"$text\"; 99: valgrind's errors)"
        cat "$tmp/vg.out" "$tmp/vg.err" | sed 's/^/    /' | tail -n 40; failed=$((failed + 1))
    fi
}
if [ $gpu = yes ]; then
    echo "skip valgrind (a GPU is present: the driver confuses valgrind)"; skipped=$((skipped + 1))
elif ! command -v valgrind > /dev/null; then
    echo "skip valgrind (not installed)"; skipped=$((skipped + 1))
else
    valgrind_check "quickstart" 1 "cannot use the GPU" build/examples/quickstart
    vg_env=GPUARR_DRIVER_LIBRARY=$no_driver
    valgrind_check "quickstart (GPUARR_DRIVER_LIBRARY=$no_driver)" 1 "cannot use the GPU" build/examples/quickstart
    vg_env=
    valgrind_check "gpuarr-info" 0 "^no \(CUDA driver\|GPU\): " build/gpuarr-info
    valgrind_check "bench" 1 "^bench: init: " build/bench
    valgrind_check "option_price" 1 "cannot use the GPU" build/examples/option_price 1000
    valgrind_check "heat_graph" 1 "cannot use the GPU" build/examples/heat_graph 100 10
fi

# test_linalg built with GPUARR_LINK_CUDA_LIBRARIES ($LINKED_TESTS, from the
# Makefile): cuBLAS from the link, shared (build/tests/linked/) and, where
# the toolkit has its static archives, static (build/tests/static/); and
# test_io, zlib from the link (-lz) where zlib.h is installed
# ($LINKED_ZLIB: yes), else opened at run time (GPUARR_ZLIB_DLOPEN).
echo "== CUDA libraries from the link (GPUARR_LINK_CUDA_LIBRARIES)"
if [ "${LINKED_ZLIB:-yes}" = no ]; then
    echo "skip zlib from the link (no zlib.h: install zlib1g-dev; the linked programs open libz.so.1 instead)"
    skipped=$((skipped + 1))
fi
for t in ${LINKED_TESTS:-}; do
    echo "== $t"
    "$t" > "$tmp/log" 2>&1
    cat "$tmp/log"
    count "$tmp/log"
done
case " ${LINKED_TESTS:-} " in
*/static/*) ;;
*) echo "skip the static link (no libcublas_static.a in the toolkit: it is on the GPU machines)"; skipped=$((skipped + 1)) ;;
esac

# `make install PREFIX=$TEST_PREFIX` (run by the Makefile before this
# script): a program built from elsewhere with nothing but pkg-config's
# flags finds the installed header, archive and kernels.
echo "== make install, pkg-config"
if [ -z "${TEST_PREFIX:-}" ] || [ ! -f "$TEST_PREFIX/lib/pkgconfig/gpuarr.pc" ]; then
    echo "FAIL no installed tree (TEST_PREFIX=${TEST_PREFIX:-}: run through make test)"; failed=$((failed + 1))
elif ! command -v pkg-config > /dev/null; then
    echo "skip building against the installed tree (pkg-config not installed)"; skipped=$((skipped + 4))
else
    export PKG_CONFIG_PATH="$TEST_PREFIX/lib/pkgconfig"
    mkdir -p "$tmp/app"
    cp examples/quickstart.c tools/gpuarr-info.c "$tmp/app/"
    check "quickstart built with \$(pkg-config --cflags --libs gpuarr), run: the same refusal or a full run" \
        sh -c 'cd "$1/app" && cc -std=c11 -O0 -o quickstart quickstart.c $(pkg-config --cflags --libs gpuarr) &&
               { ./quickstart > out 2> err; rc=$?; [ $rc -eq 0 ] ||
                 { [ $rc -eq 1 ] && grep -q "^quickstart: cannot use the GPU: " err; } || { cat out err; false; }; }' sh "$tmp"
    families=$(ls kernels/*.cu | wc -l)
    check "gpuarr-info built with pkg-config finds each family in $TEST_PREFIX/lib/gpuarr/kernels" \
        sh -c 'cd "$1/app" && cc -std=c11 -O0 -o info gpuarr-info.c $(pkg-config --cflags --libs gpuarr) &&
               unset GPUARR_KERNEL_DIR && ./info > out && n=$(grep -c " $2/lib/gpuarr/kernels/[a-z]*\.fatbin: " out) &&
               [ "$n" -eq "$3" ] || { cat out; false; }' sh "$tmp" "$TEST_PREFIX" "$families"
    check "gpuarr-info built with pkg-config and the installed gpuarr_fatbins.o (GPUARR_EMBED_FATBINS)" \
        sh -c 'cd "$1/app" && cc -std=c11 -O0 -DGPUARR_EMBED_FATBINS -o info_embedded gpuarr-info.c \
                   $(pkg-config --variable=embedded gpuarr) $(pkg-config --cflags --libs gpuarr) &&
               ./info_embedded > out && grep -q "(embedded)" out && ! grep -q "not found" out || { cat out; false; }' sh "$tmp"
    # the user-kernel example as a project elsewhere: the installed build
    # rule (pkg-config's `mk`) compiles and embeds its kernels
    cp examples/user_kernels/kernels.cu examples/user_kernels/main.c "$tmp/app/"
    printf 'include $(MK)\nuser_kernels: main.c k_image.o\n\t$(CC) -std=c11 -O0 -o $@ main.c k_image.o $(PC)\nk_image.o: k.fatbin\n\t$(call gpuarr_embed,user_kernels_image)\nk.fatbin: kernels.cu $(GPUARR_USER_DEPS)\n\t$(gpuarr_fatbin)\n' \
        > "$tmp/app/Makefile.user"
    check "user kernels built by the installed gpuarr.mk, embedded, linked with pkg-config, run: the same refusal or a full run" \
        sh -c 'cd "$1/app" && make -s -f Makefile.user MK="$(pkg-config --variable=mk gpuarr)" PC="$(pkg-config --cflags --libs gpuarr)" \
                   ${GPUARR_ARCHS:+GPUARR_ARCHS="$GPUARR_ARCHS"} > make.out 2>&1 || { cat make.out; false; } &&
               { ./user_kernels > out 2> err; rc=$?; [ $rc -eq 0 ] ||
                 { [ $rc -eq 1 ] && grep -q "^user_kernels: cannot use the GPU: " err; } || { cat out err; false; }; }' sh "$tmp"
fi

# The Python scripts that load build/libgpuarr.so with ctypes (they need
# NumPy; each prints its own summary line).
for script in "conformance.py:NumPy conformance" "dlpack_interop.py:DLPack with CuPy and PyTorch"; do
    echo "== ${script#*:} (tests/${script%%:*})"
    if python3 -c "import numpy" 2> /dev/null; then
        python3 "tests/${script%%:*}" build/libgpuarr.so > "$tmp/log" 2>&1
        cat "$tmp/log"
        count "$tmp/log"
    else
        echo "numpy is not installed: skipped"; skipped=$((skipped + 1))
    fi
done

# >>> fuzz: a short run of each fuzz harness of tests/fuzz (the host-side
# parsers and validators; clang's libFuzzer, skipped without it), over its
# seed corpus; tests/fuzz/run.sh says how to run them longer.
echo "== fuzzing the host parsers and validators (tests/fuzz/run.sh)"
sh tests/fuzz/run.sh > "$tmp/log" 2>&1
cat "$tmp/log"
count "$tmp/log"
# <<< fuzz

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
