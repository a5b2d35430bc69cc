#!/usr/bin/env bash
# 17cd80b: sort v16's 16-bit bucket kernel on 12 + 4 bits; the road for every input from 1.75e9
# keys (kRoad16From). Build the committed tree in .dev/clean (the frozen run's build folder, reused
# by its parts); resource usage of the changed kernel; v15/v16/CUB uniform on both sides of
# kRoad16From and at 2^31 + 17 (sorted and few there too), every result checked; the 1024x34
# small-road ctest; Nsight Compute listing the changed kernel's launches under the sanitizer's
# settings (so that the sanitizer's zero counts cover it); compute-sanitizer's four tools there;
# v16's GPU tests at the default road.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/v
STEPS=build OUT=$OUT/v bash scripts/device_run.sh > $OUT/v/build.txt 2>&1 || { tail -30 $OUT/v/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
cd build-device
cuobjdump -res-usage CMakeFiles/ladder_core.dir/sort/sort.cu.o 2>&1 | grep -A1 "bucket_sort16_kernel" > $OUT/v/res-usage.txt; grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" $OUT/v/res-usage.txt
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:uniform/manual_time$'
timeout 150 ./cuda-ladder --ops=sort --sizes=1650000000,1850000000,2147483665 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/v/cross > $OUT/v/cross.log 2>&1
echo "cross rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/v/cross.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/v/cross.log | head -5
grep -E "manual_time " $OUT/v/cross.log | awk '{print $1, $2, $3}'
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:(sorted|few)/manual_time$'
timeout 100 ./cuda-ladder --ops=sort --sizes=2147483665 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/v/bound > $OUT/v/bound.log 2>&1
echo "bound rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/v/bound.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/v/bound.log | head -5
grep -E "manual_time " $OUT/v/bound.log | awk '{print $1, $2, $3}'
timeout 100 ctest -R 'gpu_sort_v16_bucket_1024x34' --output-on-failure > $OUT/v/ctest-1024x34.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; tail -3 $OUT/v/ctest-1024x34.log
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=1024x34
timeout 60 ncu --clock-control none -k regex:bucket_sort16 --metrics gpu__time_duration.sum ./ladder-tests \
  --gtest_filter="$F" --gtest_brief=1 > $OUT/v/ncu-launches.log 2>&1
echo "ncu rc=$? launches of bucket_sort16_kernel: $(grep -c 'bucket_sort16_kernel' $OUT/v/ncu-launches.log)"
for tool in memcheck racecheck initcheck synccheck; do
  extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=bucket_sort16_kernel --launch-count 1"
  timeout 80 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/v/san-sort-$tool.log 2>&1
  echo "sort 1024x34 $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/v/san-sort-$tool.log | head -3
done
unset LADDER_NO_GRAPHS LADDER_SORT_V16_HYBRID_FROM LADDER_SORT_V16_BUCKET
timeout 120 ./ladder-tests --gtest_filter='*sort_v16*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/v/default.log 2>&1
echo "tests rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/v/default.log | head -8
cd $OUT && tar czf verify.tgz v && rm -rf v
