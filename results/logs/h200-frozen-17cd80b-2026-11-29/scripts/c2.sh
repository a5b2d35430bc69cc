#!/usr/bin/env bash
# call 2 (2026-11-29, eighth session): the 16-bit bucket kernel on 12 + 4 bits, the road for every
# input (candidate: needs_order false). Build; resource usage; 1024x34 ctest; v16 GPU tests at the
# default road; compute-sanitizer with 1024x34 forced; v15/v16/CUB uniform at 1.1e9, 1.5e9, 2^31.
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/c2
STEPS=build OUT=$OUT/c2 bash scripts/device_run.sh > $OUT/c2/build.txt 2>&1 || { tail -30 $OUT/c2/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
cd build-device
cuobjdump -res-usage CMakeFiles/ladder_core.dir/sort/sort.cu.o 2>&1 | grep -A1 "bucket_sort16_kernel" > $OUT/c2/res-usage.txt; grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" $OUT/c2/res-usage.txt
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:uniform/manual_time$'
timeout 300 ./cuda-ladder --ops=sort --sizes=1100000000,1500000000,2^31 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/c2/large > $OUT/c2/large.log 2>&1
echo "large rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/c2/large.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/c2/large.log | head -5
grep -E "manual_time " $OUT/c2/large.log | awk '{print $1, $2, $3}'
timeout 100 ctest -R 'gpu_sort_v16_bucket_1024x34' --output-on-failure > $OUT/c2/ctest-1024x34.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; tail -3 $OUT/c2/ctest-1024x34.log
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for tool in memcheck racecheck initcheck synccheck; do
  extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=bucket_sort16_kernel --launch-count 1"
  LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=1024x34 \
    timeout 80 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/c2/san-sort-$tool.log 2>&1
  echo "sort 1024x34 $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/c2/san-sort-$tool.log | head -3
done
timeout 120 ./ladder-tests --gtest_filter='*sort_v16*' --gtest_brief=1 > $OUT/c2/default.log 2>&1
echo "tests rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/c2/default.log | head -8
cd $OUT && tar czf c2.tgz c2 && rm -rf c2
