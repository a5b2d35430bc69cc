#!/usr/bin/env bash
# Session 14, call A (H200): sort v17's road past 2^32 - 1 keys (sort/merge_parts.cuh): its tests
# with a lowered part bound, compute-sanitizer on it, then the opt-in Huge2e32 sort tests.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
free -g | head -2
mkdir -p $OUT/a
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/a/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/a/build.txt 2>&1 || { tail -20 $OUT/a/build.txt; exit 1; }
echo "built t=$(el)s"
LADDER_SORT_PART_KEYS=1000000 timeout 200 ./build-device/ladder-tests \
  --gtest_filter='*sort_v17*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/a/parts_small.log 2>&1
echo "parts_small rc=$? t=$(el)s"
grep -E "tests ran|PASSED|FAILED|SKIPPED" $OUT/a/parts_small.log | head -20
export LADDER_NO_GRAPHS=1 LADDER_SORT_PART_KEYS=100000
for F in 'Registry/*sort_v17*n1048583_uniform' 'Registry/*sort_pairs_v16*n1048583_few'; do
  for tool in memcheck racecheck initcheck synccheck; do
    [ $(el) -gt 330 ] && { echo "stop: time"; break 2; }
    extra=""; [ $tool = racecheck ] && extra="--kernel-name regex:merge_kernel --launch-count 2"
    timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      build-device/ladder-tests --gtest_filter="$F" > "$OUT/a/san-${F//[\/*]/_}-$tool.log" 2>&1
    echo "$F $tool rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/a/san-${F//[\/*]/_}-$tool.log" | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' "$OUT/a/san-${F//[\/*]/_}-$tool.log" | head -1)"
  done
done
unset LADDER_NO_GRAPHS LADDER_SORT_PART_KEYS
( while sleep 20; do free -g | awk 'NR==2{print "host used GB", $3}'; done ) > $OUT/a/mem.txt 2>&1 &
MP=$!
LADDER_HUGE_TESTS=sort timeout $(( 560 - $(el) )) ./build-device/ladder-tests \
  --gtest_filter='Huge2e32/*sort*' > $OUT/a/huge2e32-sort.log 2>&1
echo "huge2e32 sort rc=$? t=$(el)s"
kill $MP
grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure|skipped" $OUT/a/huge2e32-sort.log | head -20
sort -k4 -n $OUT/a/mem.txt | tail -1
