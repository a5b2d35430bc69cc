#!/bin/bash
# Session 31, call 5 (H200): v10 whose reduce warps publish each tile's count before they scan its
# chunk counts, registered as v11 (v11_publish_first), and the same with the patient look-ahead's
# first pass once its own tile is reduced, registered as v12 (v12_publish_first_wait_own). The
# build; their GPU tests (per-version, workspace, EpochWrap and GroupSums tests); two benchmark
# processes (v10, v11, v12, CUB; 2^24 and 2^28, every distribution, median of 5).
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if_v11_publish_first*:*copy_if_v12_publish_first_wait_own*:CopyIfWorkspace*:EpochWrap*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/tests.txt | head
for k in 1 2; do
  mkdir -p $OUT/bench$k
  timeout 120 ./build/cuda-ladder --ops=copy_if --sizes=2^24,2^28 \
    --benchmark_filter='^copy_if/(v10_group_sums|v11_publish_first|v12_publish_first_wait_own|cub)/' \
    --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench$k \
    > $OUT/bench$k/bench.txt 2>&1
  echo "bench$k rc=$? t=$(el)s"; grep median $OUT/bench$k/bench.txt | awk '{print $1, $2}'
done
ls $OUT
