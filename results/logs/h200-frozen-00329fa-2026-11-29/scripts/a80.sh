#!/usr/bin/env bash
# The -DCMAKE_CUDA_ARCHITECTURES=80 build (compute_80 PTX, JIT-compiled on this Hopper): sort v16's
# GPU tests on the small road (every kernel of the road at the tests' sizes), then with 1,024 x 17
# forced, v16's new bucket kernel among them.
set -u
export LADDER_GIT_COMMIT=${1:-wip}
T0=$(date +%s)
cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/configure80.log 2>&1 || { tail $OUT/configure80.log; exit 1; }
cmake --build build80 -j16 --target ladder-tests > $OUT/build80.log 2>&1 || { grep -E "error" $OUT/build80.log | head; exit 1; }
echo "built $(( $(date +%s) - T0 ))s"
LADDER_SORT_V16_HYBRID_FROM=200000 timeout 90 build80/ladder-tests --gtest_filter='*sort_v16*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/arch80-small.log 2>&1
echo "small road rc=$? $(( $(date +%s) - T0 ))s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |skip" $OUT/arch80-small.log | head -5
LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=256x18 timeout 60 build80/ladder-tests --gtest_filter='*sort_v16*' --gtest_brief=1 > $OUT/arch80-256x18.log 2>&1
echo "256x18 rc=$? $(( $(date +%s) - T0 ))s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/arch80-256x18.log | head -5
