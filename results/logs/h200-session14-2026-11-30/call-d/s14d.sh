#!/usr/bin/env bash
# Session 14, call D (H200): the opt-in Huge2e32 tests that call B's time limit cut off (reduce,
# row_sum and col_sum passed there; sort in call A).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/d
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/d/build.txt 2>&1 &&
  cmake --build build-device -j 16 --target ladder-tests >> $OUT/d/build.txt 2>&1 || { tail -20 $OUT/d/build.txt; exit 1; }
echo "built t=$(el)s"
( while sleep 15; do free -g | awk 'NR==2{print "host used GB", $3}'; done ) > $OUT/d/mem.txt 2>&1 &
MP=$!
LADDER_HUGE_TESTS=1 timeout $(( 500 - $(el) )) ./build-device/ladder-tests \
  --gtest_filter='Huge2e32/*:-Huge2e32/*sort*:Huge2e32/*reduce*:Huge2e32/*row_sum*:Huge2e32/*col_sum*' > $OUT/d/huge2e32.log 2>&1
echo "huge2e32 rc=$? t=$(el)s"
kill $MP
grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure|skipped|^\[ RUN" $OUT/d/huge2e32.log | head -60
sort -k4 -n $OUT/d/mem.txt | tail -1
