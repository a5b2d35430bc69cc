#!/usr/bin/env bash
# Session 13, call 6 (H200): compute-sanitizer on v17's third road with work for its bucket pass
# (few_spread, 25.6M keys, LADDER_SORT_V16_HYBRID_FROM=200000) in the forced bucket shapes, where
# the 1,024-thread shapes launch bucket_sort16_kernel (call 4's default shape launched only
# bucket_sort_kernel).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/s
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/s/build.txt 2>&1 &&
  cmake --build build-device -j 16 --target ladder-tests >> $OUT/s/build.txt 2>&1 || { tail -20 $OUT/s/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
F='Registry/*sort_v17*n25600000_few_spread'
export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000
for shape in 1024x34 1024x17 256x36; do
  K=$([ ${shape%x*} = 1024 ] && echo bucket_sort16_kernel || echo bucket_sort_kernel)
  for tool in racecheck memcheck; do
    [ $(( $(date +%s) - T0 )) -gt 150 ] && { echo "stop: time"; break 2; }
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=$K --launch-count 1"
    LADDER_SORT_V16_BUCKET=$shape timeout 40 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      build-device/ladder-tests --gtest_filter="$F" > $OUT/s/san-$shape-$tool.log 2>&1
    echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/s/san-$shape-$tool.log | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/s/san-$shape-$tool.log | head -1)"
  done
done
LADDER_SORT_V16_BUCKET=1024x34 timeout 30 ncu --clock-control none -k regex:bucket_sort --launch-count 1 \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size build-device/ladder-tests --gtest_filter="$F" 2>&1 \
  | grep -E "bucket_sort|gpu__time|launch__|PASSED" | cut -c1-120 > $OUT/s/ncu-1024x34.txt
cat $OUT/s/ncu-1024x34.txt
