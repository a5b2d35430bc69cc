#!/bin/bash
# Session 31, call 4 (H200): a look-ahead that polls less. copy_if/lab/count_lookahead.cu
# (built with the lab counts) counts passes a claim for six forms of the look-ahead as v10's
# kernel: no overlap (v10's look-ahead in 32-bit arithmetic), the two overlaps of call 3, and
# three forms of the patient look-ahead: its first pass once its own tile is reduced, 300 ns
# asleep after a short pass, both. The build registers the overlap (own count from the reduce) as
# v11 and the patient forms as v12, v13 and v14; their GPU tests (with the workspace, EpochWrap and
# GroupSums tests); two benchmark processes (v10 to v14, CUB; 2^24 and 2^28, every distribution,
# median of 5).
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
(cmake -S . -B build > /dev/null && cmake --build build -j14 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head; echo "built t=$(el)s") &
BB=$!
nvcc -O3 -std=c++17 -arch=sm_90 -I. -DLADDER_LAB_LOOKAHEAD_COUNTS copy_if/lab/count_lookahead.cu common/device.cu -o /tmp/cl || exit 1
echo "count built t=$(el)s"
wait $BB
timeout 120 /tmp/cl > $OUT/count_lookahead.txt 2>&1
echo "count rc=$? t=$(el)s"; cat $OUT/count_lookahead.txt
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if_v1[1234]*:CopyIfWorkspace*:EpochWrap*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/tests.txt | head
for k in 1 2; do
  mkdir -p $OUT/bench$k
  timeout 120 ./build/cuda-ladder --ops=copy_if --sizes=2^24,2^28 \
    --benchmark_filter='^copy_if/(v10_group_sums|v11_pipelined_lookahead|v12_wait_own|v13_backoff|v14_wait_own_backoff|cub)/' \
    --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench$k \
    > $OUT/bench$k/bench.txt 2>&1
  echo "bench$k rc=$? t=$(el)s"; grep median $OUT/bench$k/bench.txt | awk '{print $1, $2}'
done
ls $OUT
