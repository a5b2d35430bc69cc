#!/usr/bin/env bash
# Session 14, call C (H200): the merge kernel with its loads batched: the parts road's tests again,
# compute-sanitizer on both merge kernels, Nsight Compute's proof that they ran, then v17 and CUB
# at 2^31 + 3 (a part) and 2^32 + 5 keys.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/c
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/c/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/c/build.txt 2>&1 || { tail -20 $OUT/c/build.txt; exit 1; }
echo "built t=$(el)s"
LADDER_SORT_PART_KEYS=1000000 timeout 150 ./build-device/ladder-tests \
  --gtest_filter='*sort_v17*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/c/parts_small.log 2>&1
echo "parts_small rc=$? t=$(el)s"
grep -E "tests ran|PASSED|FAILED" $OUT/c/parts_small.log | head -10
export LADDER_NO_GRAPHS=1 LADDER_SORT_PART_KEYS=100000
for F in 'Registry/*sort_v17*n1048583_uniform' 'Registry/*sort_pairs_v16*n1048583_few'; do
  G=${F//[\/*]/_}
  for tool in memcheck racecheck initcheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=merge_kernel --launch-count 4"
    timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      build-device/ladder-tests --gtest_filter="$F" > "$OUT/c/san-$G-$tool.log" 2>&1
    echo "$F $tool rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/c/san-$G-$tool.log" | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' "$OUT/c/san-$G-$tool.log" | head -1)"
  done
  timeout 60 ncu --clock-control none -k regex:merge --metrics gpu__time_duration.sum,launch__grid_size \
    build-device/ladder-tests --gtest_filter="$F" > "$OUT/c/ncu-$G.txt" 2>&1
  echo "ncu rc=$? $(grep -c 'merge_kernel' "$OUT/c/ncu-$G.txt") merge_kernel launches, $(grep -c 'merge_split_kernel' "$OUT/c/ncu-$G.txt") split launches"
done
unset LADDER_NO_GRAPHS LADDER_SORT_PART_KEYS
./build-device/cuda-ladder --ops=sort --sizes=2^31+3,2^32+5 --benchmark_filter='^sort/(v17_|cub/)' \
  --benchmark_repetitions=3 --verbose --results_dir=$OUT/c > $OUT/c/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"
grep -E "_median|left out|rror" $OUT/c/bench.txt | cut -c1-100
