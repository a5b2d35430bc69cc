#!/usr/bin/env bash
# Session 12, call 3 (H200): the README's test command at the head (sm_90 build), as a user runs it.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/t
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/t/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/t/build.txt 2>&1 || { tail -20 $OUT/t/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
timeout 420 ctest --test-dir build-device --output-on-failure -j 4 > $OUT/t/ctest.log 2>&1
echo "ctest rc=$? t=$(( $(date +%s) - T0 ))s"
grep -E "tests passed|tests failed|Failed|\*\*\*|Total Test" $OUT/t/ctest.log | head -20
gzip $OUT/t/ctest.log
