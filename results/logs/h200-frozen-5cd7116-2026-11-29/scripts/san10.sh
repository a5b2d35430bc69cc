#!/usr/bin/env bash
# 21f0670 (v16's kernels as at 5cd7116): compute-sanitizer on the nearly_sorted input at 25.6M keys
# on v16's small road, where a bucket holds about 391 keys (warp 0's lanes full for 12 items, and
# the check passing the first row in many buckets), with 1,024 x 34 and 256 x 18 forced. Racecheck
# over the forced kernel's first launch.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B bsan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build.txt 2>&1 &&
  cmake --build bsan -j 16 --target ladder-tests >> $OUT/build.txt 2>&1 || { tail -20 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_v16_top_digits_first_n25600000_nearly_sorted'
export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000
for tool in memcheck racecheck initcheck synccheck; do
  for shape in 1024x34 256x18; do
    [ $(( $(date +%s) - T0 )) -gt 200 ] && { echo "stop: time"; break 2; }
    K=$([ $shape = 1024x34 ] && echo bucket_sort16_kernel || echo bucket_sort_kernel)
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=$K --launch-count 1"
    LADDER_SORT_V16_BUCKET=$shape timeout 45 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      bsan/ladder-tests --gtest_filter="$F" --gtest_brief=1 > $OUT/san-$shape-$tool.log 2>&1
    echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$shape-$tool.log | head -1) $(grep -cE 'PASSED' $OUT/san-$shape-$tool.log)"
  done
done
