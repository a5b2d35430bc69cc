#!/usr/bin/env bash
# Call 1: build, v16 tests (keys and pairs), pairs benchmark, a kernel breakdown of v16 pairs.
set -u
T0=$(date +%s)
export LADDER_GIT_COMMIT=${LADDER_GIT_COMMIT:-wip}
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release > $OUT/configure.log 2>&1 || { tail -20 $OUT/configure.log; exit 1; }
cmake --build build-device -j16 > $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
echo "built $(( $(date +%s) - T0 )) s"
cd build-device
timeout 150 ./ladder-tests --gtest_filter='*sort_pairs_v16*:*sort_v16*' --gtest_brief=1 > $OUT/default.log 2>&1; echo "default rc=$? $(( $(date +%s) - T0 )) s"; grep -E "PASSED|FAILED|tests ran" $OUT/default.log | head -8
for t in gpu_sort_v16_hybrid_small gpu_sort_v16_portions_small gpu_sort_v16_bucket_1024x17 gpu_sort_v16_bucket_256x36; do
  timeout 120 ctest -R "^$t\$" --output-on-failure > $OUT/$t.log 2>&1; echo "$t rc=$? $(( $(date +%s) - T0 )) s"; grep -E "tests passed|FAILED|Failure|got " $OUT/$t.log | head -5
done
timeout 150 ./cuda-ladder --ops=sort_pairs --sizes=2^27,2^28,2^29,2^30 --benchmark_filter='v12|v16|cub/' --benchmark_repetitions=3 --benchmark_out=$OUT/pairs.json --benchmark_out_format=json > $OUT/pairs.txt 2>&1; echo "bench rc=$? $(( $(date +%s) - T0 )) s"
grep -E "median" $OUT/pairs.txt | head -20
LADDER_NO_GRAPHS=1 timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --launch-count 14 ./cuda-ladder --ops=sort_pairs --sizes=2^28 --benchmark_filter=v16 --benchmark_repetitions=1 --no-blocking > $OUT/ncu-pairs.txt 2>&1; echo "ncu rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $OUT/ncu-pairs.txt | paste - - | sed -E 's/\s+/ /g' | cut -c1-160 | head -20
