#!/usr/bin/env bash
# One full run on a GPU machine: build, test, sanitize a sample, benchmark, and collect the logs
# and the raw JSON into $OUT (or ./device-out). Used for the committed results:
#   OUT=/some/dir bash scripts/device_run.sh [extra cuda-ladder flags]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-device-out}
mkdir -p "$OUT"
BUILD=build-device
log() { echo "=== $* ($(date +%T))"; }

log configure
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
log build
cmake --build "$BUILD" -j "$(nproc)" >>"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -40; exit 1; }

log tests
(cd "$BUILD" && ctest -V) >"$OUT/tests.log" 2>&1
test_rc=$?
grep -E "tests passed|^[0-9]+: \[  (PASSED|FAILED|SKIPPED) |Test #" "$OUT/tests.log"

log sanitizer
for tool in memcheck racecheck synccheck initcheck; do
  echo "##### $tool" >>"$OUT/sanitizer.log"
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$BUILD/ladder-tests" \
    --gtest_filter='*_n33_uniform:*_n1000_uniform:*_n257_ones:*_n33_small_signed:*_n1025_small_signed:*_n1000_uniform_offset1' --gtest_brief=1 \
    >>"$OUT/sanitizer.log" 2>&1
  echo "$tool rc=$?"
done
grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" "$OUT/sanitizer.log" | sort | uniq -c

log benchmark
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >"$OUT/bench.log" 2>&1
"$BUILD/cuda-ladder" --results_dir="$OUT" --benchmark_repetitions=5 \
  --benchmark_display_aggregates_only=true "$@" >>"$OUT/bench.log" 2>&1
bench_rc=$?
grep -E "median|error|ERROR" "$OUT/bench.log" | sed -E 's/ +/ /g' | cut -c1-150
log "error paths"
# A size the GPU cannot hold: a clear error per benchmark, the run goes on, exit status 1.
"$BUILD/cuda-ladder" --ops=reduce --sizes=2^40 --benchmark_filter='v1[01]|cub' >"$OUT/errors.log" 2>&1
echo "exit $? (want 1)" >>"$OUT/errors.log"
grep -E "ERROR|error|exit" "$OUT/errors.log" | cut -c1-200

log "beyond 32-bit indexing"
# The best rungs and CUB at n = 2^31 + 17 (checked before and after timing, like every
# benchmark).
"$BUILD/cuda-ladder" --ops=reduce,scan --sizes=2^31+17 --benchmark_filter='reduce/(v1[01]|cub)|scan/(v13|cub)' \
  >"$OUT/huge.log" 2>&1
echo "exit $?" >>"$OUT/huge.log"
grep -E "manual_time|ERROR|error|exit" "$OUT/huge.log" | sed -E 's/ +/ /g' | cut -c1-160

log "done: tests rc=$test_rc, benchmark rc=$bench_rc"
