#!/usr/bin/env bash
# Session 14, call B (H200): the opt-in Huge2e32 tests of every other operator (their first run on
# a GPU), then v17 and CUB timed at 2^32 - 1 and 2^32 + 5 keys.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/b
[ -x build-device/ladder-tests ] || { cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/b/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/b/build.txt 2>&1 || { tail -20 $OUT/b/build.txt; exit 1; }; }
echo "ready t=$(el)s"
( while sleep 15; do free -g | awk 'NR==2{print "host used GB", $3}'; done ) > $OUT/b/mem.txt 2>&1 &
MP=$!
./build-device/cuda-ladder --ops=sort --sizes=4294967295,2^32+5 --benchmark_filter='^sort/(v17_|cub/)' \
  --benchmark_repetitions=3 --verbose --results_dir=$OUT/b > $OUT/b/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"
grep -E "^sort/|left out|error" $OUT/b/bench.txt | grep -v "_mean\|_stddev\|_cv" | head -20
LADDER_HUGE_TESTS=1 timeout $(( 570 - $(el) )) ./build-device/ladder-tests \
  --gtest_filter='Huge2e32/*:-Huge2e32/*sort*' > $OUT/b/huge2e32.log 2>&1
echo "huge2e32 rc=$? t=$(el)s"
kill $MP
grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure|skipped" $OUT/b/huge2e32.log | head -40
sort -k4 -n $OUT/b/mem.txt | tail -1
