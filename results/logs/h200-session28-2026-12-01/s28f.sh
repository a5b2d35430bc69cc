#!/bin/bash
# Session 28, call 6 (H200): copy_if v09 with its pipeline from nine v06 tiles per SM (v08: sixteen).
# Build; v09's GPU tests (registry, random, dispatch on both sides of each bound, the workspace and
# epoch tests, 2^31 + 17); compute-sanitizer's four tools on v09's dispatch and workspace tests;
# the benchmark of v08, v09 and CUB on both sides of the moved bound, 5 repetitions.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
timeout 200 ./build/ladder-tests --gtest_filter='*copy_if_v09*:CopyIfWorkspace*:EpochWrap*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED" $OUT/tests.txt | head
./build/ladder-tests --gtest_filter='Dispatch*copy_if_v09*' 2>&1 | grep -E "bound|n=" | head -3
LADDER_HUGE_TESTS=copy_if timeout 90 ./build/ladder-tests --gtest_filter='Huge/*copy_if_v09*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head -3
for tool in memcheck racecheck synccheck initcheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*copy_if_v09*:CopyIfWorkspace*v09*:EpochWrap*copy_if*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
mkdir -p $OUT/bench
timeout 120 ./build/cuda-ladder --ops=copy_if --sizes=4194304,4861952,4861953,5242880,6291456,8388608,8646656,8646657 \
  --benchmark_filter='^copy_if/(v08_size_dispatch|v09_epoch_statuses|cub)/' \
  --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench \
  > $OUT/bench/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"; grep median $OUT/bench/bench.txt | grep keep50 | awk '{print $1, $2, $NF}'
cd $OUT && tar czf call6.tgz gpu.txt tests.txt huge.txt sanitizer-*.txt bench && rm -rf bench sanitizer-*.txt tests.txt huge.txt
