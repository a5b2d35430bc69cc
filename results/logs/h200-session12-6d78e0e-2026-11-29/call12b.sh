#!/usr/bin/env bash
# Session 12, call 2 (H200): the opt-in HugeBounds tests (sort v17 and sort_pairs v16 at
# 271,000,000 and 2^30, each +-1, every input), keys and pairs in two processes side by side.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/b
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/b/build.txt 2>&1 &&
  cmake --build build-device -j 16 --target ladder-tests >> $OUT/b/build.txt 2>&1 || { tail -20 $OUT/b/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
LADDER_HUGE_TESTS=sort,sort_pairs timeout 480 ./build-device/ladder-tests --gtest_filter='HugeBounds/*sort_v*' > $OUT/b/bounds-keys.log 2>&1 &
PK=$!
LADDER_HUGE_TESTS=sort,sort_pairs timeout 480 ./build-device/ladder-tests --gtest_filter='HugeBounds/*sort_pairs_v*' > $OUT/b/bounds-pairs.log 2>&1 &
PP=$!
wait $PK; echo "keys rc=$? t=$(( $(date +%s) - T0 ))s"
wait $PP; echo "pairs rc=$? t=$(( $(date +%s) - T0 ))s"
for f in $OUT/b/bounds-*.log; do echo "$f: $(grep -c 'passed$' $f) inputs passed"; grep -E "^\[ +(OK|FAILED|PASSED) |Failure|rc=" $f | head -12; done
