#!/bin/sh
# Builds the fuzz harnesses of tests/fuzz (clang's libFuzzer with
# AddressSanitizer and UndefinedBehaviorSanitizer) into build/fuzz and runs
# each for a few seconds over its seed corpus (tests/fuzz/corpus/<name>,
# which holds a regression input for every defect found), one line each:
#   ok   fuzz index_text (123456 runs)
# and closes with "N passed, N failed, N skipped" (tests/run.sh adds it up).
# Without clang's libFuzzer every harness is skipped.
#
#   GA_FUZZ_SECONDS  seconds per harness (default 3)
#   GA_FUZZ_CFLAGS   compiler flags (default -O0 -g: quick to build; use
#                    -O1 -g for long runs)
#   GA_FUZZ_HARNESSES  the names to run (default: every tests/fuzz/*.c)
# A failing harness leaves its input in build/fuzz/<name>-crash-*; repeat
# it with build/fuzz/<name> <that file>. New inputs found go to
# build/fuzz/corpus/<name>, never to the source tree.
set -u
secs=${GA_FUZZ_SECONDS:-3}
cflags=${GA_FUZZ_CFLAGS:--O0 -g}
out=build/fuzz
cuda=${CUDA_HOME:-/usr/local/cuda}
names=${GA_FUZZ_HARNESSES:-$(for f in tests/fuzz/*.c; do basename "$f" .c; done)}
passed=0 failed=0 skipped=0
mkdir -p "$out"

cc=${GA_FUZZ_CC:-clang}
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$out/probe.c"
if ! command -v "$cc" > /dev/null || ! "$cc" -fsanitize=fuzzer,address,undefined -o "$out/probe" "$out/probe.c" > /dev/null 2>&1; then
    for name in $names; do echo "skip fuzz $name (clang's libFuzzer is unavailable)"; skipped=$((skipped + 1)); done
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 0
fi
if [ ! -f build/libgpuarr_cub.a ]; then
    for name in $names; do echo "skip fuzz $name (no build/libgpuarr_cub.a: make fatbins)"; skipped=$((skipped + 1)); done
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 0
fi

# Build every harness, two at a time.
running=0
for name in $names; do
    rm -f "$out/$name"
    $cc -std=c11 $cflags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -Wall -Wextra -Werror -I. -I"$cuda/include" -o "$out/$name" "tests/fuzz/$name.c" \
        build/libgpuarr_cub.a -L"$cuda/lib64" -lcudart_static -lstdc++ -lrt -ldl -lpthread -lm \
        > "$out/$name.build" 2>&1 &
    running=$((running + 1))
    if [ $running -ge 2 ]; then wait; running=0; fi
done
wait

for name in $names; do
    if [ ! -x "$out/$name" ]; then
        echo "FAIL fuzz $name (does not build)"; sed 's/^/    /' "$out/$name.build" | head -n 30
        failed=$((failed + 1))
        continue
    fi
    mkdir -p "$out/corpus/$name"
    seeds=tests/fuzz/corpus/$name
    [ -d "$seeds" ] || seeds=
    "$out/$name" -max_total_time="$secs" -runs=10000000 -artifact_prefix="$out/$name-" \
        "$out/corpus/$name" $seeds > "$out/$name.log" 2>&1
    rc=$?
    runs=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$out/$name.log" | tail -n 1)
    if [ $rc -eq 0 ] && [ -n "$runs" ]; then
        echo "ok   fuzz $name ($runs runs)"; passed=$((passed + 1))
    else
        echo "FAIL fuzz $name (exit $rc; the input is in $out/$name-crash-*)"
        grep -v '^    #' "$out/$name.log" | tail -n 20 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
rm -f "$out/probe" "$out/probe.c"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
