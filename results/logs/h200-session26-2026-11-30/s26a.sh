#!/bin/bash
# Session 26, call 1 (H200): scan v18 (v18_epoch_statuses: v17 with no workspace clear, statuses
# tagged with the launch's epoch), never run on a GPU before. Build; the benchmark of v16, v17, v18
# and CUB at 2^24, 2^26 and 2^28 (5 repetitions) in two separate processes; scan's GPU tests, every
# dispatch test and the new ScanWorkspace tests (one workspace through a sequence of sizes); v18 at
# 2^31 + 17.
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
for r in 1 2; do
  mkdir -p $OUT/bench$r
  timeout 120 ./build/cuda-ladder --ops=scan --sizes=2^24,2^26,2^28 \
    --benchmark_filter='^scan/(v16_size_dispatch|v17_aged_lookahead|v18_epoch_statuses|cub)/' \
    --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench$r \
    > $OUT/bench$r/bench.txt 2>&1
  echo "bench$r rc=$? t=$(el)s"; grep median $OUT/bench$r/bench.txt | awk '{print $1, $2, $NF}' | head -20
done
timeout 240 ./build/ladder-tests --gtest_filter='*scan*:Dispatch*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/tests.txt | head
LADDER_HUGE_TESTS=scan timeout 90 ./build/ladder-tests --gtest_filter='Huge/*scan_v18*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
