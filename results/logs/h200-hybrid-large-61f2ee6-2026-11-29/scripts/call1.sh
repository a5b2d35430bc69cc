#!/usr/bin/env bash
# call 1 (session 3): build; v16's small-road tests (portions, 1024x34 forced); sort at 2^28..2^31
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
( cd build-device && timeout 200 ctest -R 'gpu_sort_v16' --output-on-failure > $OUT/ctest-v16.log 2>&1; echo "ctest rc=$?" >> $OUT/ctest-v16.log )
tail -12 $OUT/ctest-v16.log
echo "ctest done $(( $(date +%s) - T0 ))s"
mkdir -p $OUT/large
timeout 230 ./build-device/cuda-ladder --ops=sort --sizes=2^28,2^29,2^30,2^31 \
  --benchmark_filter='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:(uniform|sorted|few)/manual_time$' \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/large > $OUT/large.log 2>&1
echo "large rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/large.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/large.log | head -5
grep -E "manual_time " $OUT/large.log | awk '{print $1, $2, $3}' | head -40
