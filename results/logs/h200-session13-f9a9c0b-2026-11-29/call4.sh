#!/usr/bin/env bash
# Session 13, call 4 (H200): compute-sanitizer on v17's third road with work for its bucket pass:
# the few_spread input at 25.6M keys, the small road forced (LADDER_SORT_V16_HYBRID_FROM=200000).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/s
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/s/build.txt 2>&1 &&
  cmake --build build-device -j 16 --target ladder-tests >> $OUT/s/build.txt 2>&1 || { tail -20 $OUT/s/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
F='Registry/*sort_v17*n25600000_few_spread'
export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000
for run in "memcheck:" "racecheck:bucket_sort16_kernel" "racecheck:bucket_sort_kernel" "synccheck:" "initcheck:"; do
  tool=${run%%:*}; K=${run#*:}
  [ $(( $(date +%s) - T0 )) -gt 230 ] && { echo "stop: time"; break; }
  extra=""; [ -n "$K" ] && extra="--kernel-name kns=$K --launch-count 1"
  timeout 50 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
    build-device/ladder-tests --gtest_filter="$F" > $OUT/s/san-$tool-$K.log 2>&1
  echo "$tool $K rc=$? $(( $(date +%s) - T0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/s/san-$tool-$K.log | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/s/san-$tool-$K.log | head -1)"
done
