#!/usr/bin/env bash
# call 1: build, the new GPU tests, the sort group at the ladder sizes, sort at 2^29..2^31
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
( cd build-device && timeout 240 ctest -R 'gpu_sort_portions_small|gpu_mine|new_rung' --output-on-failure > $OUT/ctest-new.log 2>&1; echo "ctest rc=$?" >> $OUT/ctest-new.log )
tail -15 $OUT/ctest-new.log
echo "ctest done $(( $(date +%s) - T0 ))s"
STEPS=bench BENCH_GROUPS=sort OUT=$OUT GROUP_TIMEOUT=150 bash scripts/device_run.sh > $OUT/bench.txt 2>&1
tail -3 $OUT/bench.txt; ls $OUT
echo "bench done $(( $(date +%s) - T0 ))s"
mkdir -p $OUT/large
timeout 170 ./build-device/cuda-ladder --ops=sort,sort_pairs --sizes=2^30,2^31 \
  --benchmark_filter='^(sort/(v14_l2_prefetch|v16_top_digits_first|v15_counted_ahead|cub)/n:[0-9]+/dist:(uniform|sorted|few)|sort_pairs/(v12_large_tiles|cub)/n:[0-9]+)/manual_time$' \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/large > $OUT/large.log 2>&1
echo "large rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/large.log; grep -i "error\|wrong\|fail" $OUT/large.log | head -5
