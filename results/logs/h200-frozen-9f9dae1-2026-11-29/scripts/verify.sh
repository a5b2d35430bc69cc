#!/usr/bin/env bash
# 9f9dae1: histogram v05's grid, sort v16's 256 x 10 keys kernel without spill. Build the committed
# tree in .dev/clean (the frozen run's build folder, reused by its parts), the GPU tests of both
# histograms and of sort v16 (keys and pairs), the v16 small-road ctests, compute-sanitizer on the
# changed kernels, resource usage, and quick timings (sort 2^27, histogram 2^18..2^22).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
mkdir -p $OUT/v
STEPS=build OUT=$OUT/v bash scripts/device_run.sh > $OUT/v/build.txt 2>&1 || { tail -30 $OUT/v/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
cd build-device
cuobjdump -res-usage CMakeFiles/ladder_core.dir/sort/sort.cu.o 2>&1 | grep -A1 "bucket_sort_kernelILj256ELj10" > $OUT/v/res-usage.txt; cat $OUT/v/res-usage.txt | grep -o "REG:[0-9]* STACK:[0-9]*"
timeout 200 ./ladder-tests --gtest_filter='*histogram*:*sort_v16*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/v/default.log 2>&1
echo "tests rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/v/default.log | head -8
timeout 150 ctest -R "gpu_sort_v16" --output-on-failure > $OUT/v/ctest.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; grep -E "tests passed|FAILED" $OUT/v/ctest.log | head -5
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for tool in memcheck racecheck initcheck synccheck; do
  extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=bucket_sort_kernel --launch-count 1"
  LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=256x10 \
    timeout 80 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/v/san-sort-$tool.log 2>&1
  echo "sort 256x10 $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/v/san-sort-$tool.log | head -3
done
H='Registry/*histogram*_v05_lane_striped_n1048583_*'
for tool in memcheck racecheck initcheck synccheck; do
  LADDER_NO_GRAPHS=1 timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 ./ladder-tests \
    --gtest_filter="$H" --gtest_brief=1 > $OUT/v/san-hist-$tool.log 2>&1
  echo "histogram v05 $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/v/san-hist-$tool.log | head -3
done
timeout 90 ./cuda-ladder --ops=sort --sizes=2^27 --benchmark_filter='v16|cub/' --benchmark_repetitions=2 \
  --benchmark_out=$OUT/v/sort.json --benchmark_out_format=json > $OUT/v/sort.txt 2>&1
echo "sort bench rc=$? $(( $(date +%s) - T0 ))s"; grep -E "median" $OUT/v/sort.txt | awk '{print $1, $2, $3}' | head
timeout 60 ./cuda-ladder --ops=histogram,histogram_u8 --sizes=2^18,2^20,2^22 --benchmark_filter='v05|cub/' --benchmark_repetitions=3 \
  --benchmark_out=$OUT/v/hist.json --benchmark_out_format=json > $OUT/v/hist.txt 2>&1
echo "hist bench rc=$? $(( $(date +%s) - T0 ))s"; grep -E "median" $OUT/v/hist.txt | awk '{print $1, $2, $3}' | head -20
cd $OUT && tar czf verify.tgz v && rm -rf v
