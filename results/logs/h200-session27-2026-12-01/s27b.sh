#!/bin/bash
# Session 27, call 2 (H200): copy_if v09 (v09_epoch_statuses: v08 with v06's pipeline on statuses
# tagged with the launch's epoch, no clear), never run as a rung before. Build; the benchmark of
# v07, v08, v09 and CUB at 2^22, 2^23, 2^24, 2^26 and 2^28 (keep50, keep1, keep99; 5 repetitions)
# in two separate processes; copy_if's GPU tests, the CopyIfWorkspace and ScanWorkspace tests (one
# workspace through a sequence of sizes); v09 at 2^31 + 17; compute-sanitizer's four tools on v09's
# dispatch and workspace tests.
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
for r in 1 2; do
  mkdir -p $OUT/bench$r
  timeout 150 ./build/cuda-ladder --ops=copy_if --sizes=2^22,2^23,2^24,2^26,2^28 \
    --benchmark_filter='^copy_if/(v07_pipelined_unordered|v08_size_dispatch|v09_epoch_statuses|cub)/' \
    --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench$r \
    > $OUT/bench$r/bench.txt 2>&1
  echo "bench$r rc=$? t=$(el)s"; grep median $OUT/bench$r/bench.txt | grep keep50 | awk '{print $1, $2, $NF}' | head -24
done
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if*:CopyIfWorkspace*:ScanWorkspace*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED" $OUT/tests.txt | head
LADDER_HUGE_TESTS=copy_if timeout 90 ./build/ladder-tests --gtest_filter='Huge/*copy_if_v09*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*copy_if_v09*:CopyIfWorkspace*v09*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
