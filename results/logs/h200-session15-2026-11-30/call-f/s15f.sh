#!/usr/bin/env bash
# Session 15, call F (H200): the sm_80 build (compute_80 PTX, JIT-compiled on the H200) of the
# road past 2^32 - 1 keys: v17's and the pairs' v16 tests with parts of at most 1,000,000 keys.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/f
cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/f/build80.txt 2>&1 &&
  cmake --build build80 -j 16 --target ladder-tests >> $OUT/f/build80.txt 2>&1 || { tail -20 $OUT/f/build80.txt; exit 1; }
echo "built t=$(el)s"
LADDER_SORT_PART_KEYS=1000000 timeout 200 ./build80/ladder-tests \
  --gtest_filter='*sort_v17*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/f/arch80-parts_small.log 2>&1
echo "arch80 parts_small rc=$? t=$(el)s"
grep -E "tests ran|PASSED|FAILED|SKIPPED \]" $OUT/f/arch80-parts_small.log | head -10
