#!/usr/bin/env bash
# Session 13, call 1 (H200): the README's test command at the head (sm_90 build), with few_spread
# in every sort test for the first time on a GPU; the few_spread sort tests first, by name.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
mkdir -p $OUT/t
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/t/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/t/build.txt 2>&1 || { tail -20 $OUT/t/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
timeout 60 ./build-device/ladder-tests --gtest_filter='*sort*few_spread*' > $OUT/t/few_spread.log 2>&1
echo "few_spread rc=$? t=$(( $(date +%s) - T0 ))s"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran" $OUT/t/few_spread.log | head -20
timeout 480 ctest --test-dir build-device --output-on-failure -j 3 > $OUT/t/ctest.log 2>&1
echo "ctest rc=$? t=$(( $(date +%s) - T0 ))s"
grep -E "Test +#|tests passed|tests failed|Failed|\*\*\*|Total Test" $OUT/t/ctest.log | head -40
gzip $OUT/t/ctest.log
