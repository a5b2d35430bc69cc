#!/usr/bin/env bash
# The sm_80 build (compute_80 PTX, JIT on the H200) of 5cd711663968's tests: sort v16
# with the 1,024 x 34 bucket shape forced on the small road.
cd .dev/clean || exit 1
T0=$(date +%s)
mkdir -p $OUT
cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/a80-build.txt 2>&1 &&
  cmake --build build80 -j "$(nproc)" --target ladder-tests >> $OUT/a80-build.txt 2>&1 || { tail -20 $OUT/a80-build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=1024x34 timeout 90 build80/ladder-tests \
  --gtest_filter='*sort_v16*' --gtest_brief=1 > $OUT/a80-sort.log 2>&1
echo "sort v16 1024x34 rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|SKIPPED" $OUT/a80-sort.log | head -4
