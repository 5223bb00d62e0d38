#!/bin/sh
# `make sanitize`: the device tests under compute-sanitizer, on a machine
# with a GPU. Usage: tests/sanitize.sh [tool ...], tools among
#   memcheck   every test program, out-of-bounds and misaligned accesses,
#              failed API calls, and leaks (--leak-check full);
#   racecheck  the programs whose kernels share memory between threads or
#   synccheck  step warps together: reductions and scans, the block sorts,
#              transposes, the select (compaction) paths, users' reduction
#              kernels (test_user_kernels), the small
#              solvers' warps (linalg), the random family's block steps
#              and the sparse family's warp shuffles (checks, row sums);
#   initcheck  the creation and transfer tests: reads of memory never written;
#   none       every test program as it is, at full sizes, no sanitizer:
#              the device tests side by side (`make check-device`), where
#              `make test` runs them one after another.
# (default: the four sanitizers). The runs go in parallel, SANITIZE_JOBS at a time
# (default: the number of cores), each within SANITIZE_TIMEOUT seconds
# (default 1500); the longest programs are split into SANITIZE_SHARDS
# (default 4) runs of a quarter of their tests each. GPUARR_TEST_SMALL=1 shrinks the tests' largest sizes (each
# kernel variant still runs), and each log, in build/sanitize/<tool>_<program>.log,
# gives every test's time. One line per run, then the totals; the exit status
# is 0 only if no run reported anything and every test passed.
set -u
cd "$(dirname "$0")/.."
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer")}
JOBS=${SANITIZE_JOBS:-$(nproc 2> /dev/null || echo 2)}
TIMEOUT=${SANITIZE_TIMEOUT:-1500}
LOGS=build/sanitize
export GPUARR_TEST_SMALL=1 GPUARR_TEST_TIMES=1

# One run: tool, program, shard ("i/n": the program's tests i, i + n, ...).
# Prints "tool program shard verdict seconds tests".
if [ "${1:-}" = --one ]; then
    tool=$2 prog=$3 shard=$4 log=$LOGS/$2_$3_$(echo "$4" | tr / of).log
    extra=
    [ "$tool" = memcheck ] && extra="--leak-check full"
    start=$(date +%s)
    if [ "$tool" = none ]; then
        GPUARR_TEST_SHARD=$shard env -u GPUARR_TEST_SMALL timeout "$TIMEOUT" "build/tests/$prog" > "$log" 2>&1
    else
        GPUARR_TEST_SHARD=$shard timeout "$TIMEOUT" "$SANITIZER" --tool "$tool" $extra --error-exitcode 99 \
            --print-limit 100 "build/tests/$prog" > "$log" 2>&1
    fi
    rc=$? took=$(($(date +%s) - start))
    # The tool's own count: "ERROR SUMMARY: N errors" (memcheck, synccheck,
    # initcheck; leaks count as errors), "RACECHECK SUMMARY: N hazards
    # displayed (E errors, W warnings)"; a race warning is a report too.
    reports=$(sed -nE 's/^========= ERROR SUMMARY: ([0-9]+) error.*/\1/p; s/^========= RACECHECK SUMMARY: ([0-9]+) hazard.*/\1/p' "$log" | head -n 1)
    tests=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    [ "$tool" = none ] && [ -n "$tests" ] && reports=0
    verdict=clean
    if [ "$rc" = 124 ]; then verdict="TIMED OUT after $TIMEOUT s"
    elif [ -z "$reports" ]; then verdict="NO SUMMARY (exit $rc)"
    elif [ "$reports" != 0 ]; then verdict="$reports REPORTS"
    elif ! echo "$tests" | grep -q ' 0 failed'; then verdict="TESTS FAILED"
    fi
    printf '%-9s %-18s %-5s %-28s %5d s  %s\n' "$tool" "$prog" "$shard" "$verdict" "$took" "${tests:-no test summary}"
    exit 0
fi

TOOLS=${*:-memcheck racecheck synccheck initcheck}
for tool in $TOOLS; do
    case $tool in
    memcheck | racecheck | synccheck | initcheck)
        [ -x "$SANITIZER" ] || { echo "sanitize: compute-sanitizer not found (set SANITIZER or CUDA_HOME)"; exit 1; } ;;
    none) ;;
    *) echo "sanitize: unknown tool $tool (memcheck, racecheck, synccheck, initcheck, none)"; exit 1 ;;
    esac
done
SHARED="test_reduce test_sort test_order_stats test_sets test_manipulation test_index test_linalg test_random test_sparse test_user_kernels"
LONG="test_reduce test_sort test_order_stats test_sets test_index test_ufunc test_linalg test_random"
SHARDS=${SANITIZE_SHARDS:-4}
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log
{
    # The slowest tool first, so that its runs do not start last.
    for tool in racecheck memcheck synccheck initcheck none; do
        case " $TOOLS " in *" $tool "*) ;; *) continue ;; esac
        case $tool in
        memcheck | none) progs=$(cd build/tests && ls test_* | grep -v '\.') ;;
        racecheck | synccheck) progs=$SHARED ;;
        initcheck) progs=test_device ;;
        esac
        # The long programs in SHARDS parts, run side by side.
        for p in $progs; do
            case " $LONG " in
            *" $p "*) i=0; while [ $i -lt "$SHARDS" ]; do echo "$tool $p $i/$SHARDS"; i=$((i + 1)); done ;;
            *) echo "$tool $p 0/1" ;;
            esac
        done
    done
} > "$LOGS/runs" || exit 1
echo "sanitize: $(wc -l < "$LOGS/runs") runs, $JOBS at a time, logs in $LOGS/"
xargs -P "$JOBS" -L 1 sh "$0" --one < "$LOGS/runs" | tee "$LOGS/summary"
runs=$(wc -l < "$LOGS/summary")
bad=$(grep -vc ' clean ' "$LOGS/summary")
echo "sanitize: $runs runs, $((runs - bad)) clean, $bad with reports, failures or timeouts"
sed -nE 's/.* ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/p' "$LOGS/summary" |
    awk '{ p += $1; f += $2; s += $3 } END { printf "sanitize: the runs'"'"' tests: %d passed, %d failed, %d skipped\n", p, f, s }'
[ "$bad" = 0 ]
