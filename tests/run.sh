#!/bin/sh
# Runs every test of `make test` and sums them into one closing line:
#   the section marks of gpuarr.h (tools/check_marks.sh), compile checks of
#   gpuarr.h (C11 with gcc and clang, C++ with g++ and clang++, warnings as
#   errors), each test program given as an argument, and the NumPy
#   conformance script when numpy is importable.
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
        check "$cc C11 static implementation" $cc -std=c11 $W -DGPUARR_STATIC -Wno-unused-function -I. -I"$CUDA_INC" -o "$tmp/s" "$tmp/impl.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 plain include, then GPUARR_IMPLEMENTATION and include again" $cc -std=c11 $W -I. -I"$CUDA_INC" -o "$tmp/stb" "$tmp/stb.c" $CUB_LIBS -ldl -lpthread -lm
        check "$cc C11 plain include hides the Kernel ABI (ga__copy_layout, ga__cub_version: expected failures)" abi_hidden $cc
    else
        echo "skip $cc (not installed)"; skipped=$((skipped + 6))
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

echo "== NumPy conformance (tests/conformance.py)"
if python3 -c "import numpy" 2> /dev/null; then
    python3 tests/conformance.py build/libgpuarr.so > "$tmp/log" 2>&1
    cat "$tmp/log"
    count "$tmp/log"
else
    echo "numpy is not installed: skipped"; skipped=$((skipped + 1))
fi

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
