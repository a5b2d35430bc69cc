#!/usr/bin/env bash
# call 3: build; 1024x34 ctest; v16 vs CUB at 2^30 (own shape and 1024x34 forced) and 2^31
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
( cd build-device && timeout 100 ctest -R 'gpu_sort_v16_bucket_1024x34' --output-on-failure > $OUT/ctest-v16.log 2>&1; echo "ctest rc=$?" >> $OUT/ctest-v16.log )
tail -4 $OUT/ctest-v16.log
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:(uniform|sorted)/manual_time$'
mkdir -p $OUT/a $OUT/b
timeout 150 ./build-device/cuda-ladder --ops=sort --sizes=2^31 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/a > $OUT/a.log 2>&1
echo "a rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/a.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/a.log | head -5
grep -E "manual_time " $OUT/a.log | awk '{print $1, $2, $3}'
LADDER_SORT_V16_BUCKET=1024x34 timeout 90 ./build-device/cuda-ladder --ops=sort --sizes=2^29,2^30 \
  --benchmark_filter='^sort/v16_top_digits_first/n:[0-9]+/dist:uniform/manual_time$' \
  --benchmark_repetitions=1 --results_dir=$OUT/b > $OUT/b.log 2>&1
echo "b rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/b.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/b.log | head -5
grep -E "manual_time " $OUT/b.log | awk '{print "forced 1024x34:", $1, $2, $3}'
