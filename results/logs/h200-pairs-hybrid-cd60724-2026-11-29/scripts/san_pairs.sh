#!/usr/bin/env bash
# compute-sanitizer over v16's pairs road (hybrid from 200,000 keys, 50,000-key portions) at
# 1,048,583 pairs: the shape by size (256 x 4) and 1,024 x 17 forced; racecheck without graphs
# (a conditional node ends racecheck's process before any report).
export LADDER_GIT_COMMIT=${1:-wip}
T0=$(date +%s)
[ -x build-device/ladder-tests ] || { cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release > $OUT/configure.log 2>&1; cmake --build build-device -j16 > $OUT/build.log 2>&1 || { grep error $OUT/build.log | head; exit 1; }; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_pairs_v16_top_digits_first_n1048583_uniform'
mkdir -p $OUT/s
for run in "256x4 memcheck" "256x4 synccheck" "256x4 initcheck" "256x4 racecheck" "1024x17 memcheck" "1024x17 initcheck" "1024x17 synccheck" "1024x17 racecheck"; do
  set -- $run; shape=$1; tool=$2
  extra=""; [ $tool = racecheck ] && extra="LADDER_NO_GRAPHS=1"
  env $extra LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000 LADDER_SORT_V16_BUCKET=$shape \
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-device/ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/s/$tool-$shape.log 2>&1
  echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED|Skipped" $OUT/s/$tool-$shape.log | head -3
  [ $(( $(date +%s) - T0 )) -gt 420 ] && break
done
cd $OUT && tar czf san.tgz s && rm -rf s
