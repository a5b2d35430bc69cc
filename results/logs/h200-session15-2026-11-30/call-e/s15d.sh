#!/usr/bin/env bash
# Session 15, call D (H200): the merge round with two-level splits and 128 x 15 blocks: build; the
# parts road's tests; compute-sanitizer's four tools; probe_merge (two parts small, 26 parts small,
# 2^32 + 5); the opt-in Huge2e32 sort tests; v17 and CUB at 2^32 + 5.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/d
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/d/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/d/build.txt 2>&1 &&
  cmake --build build-device --target sort_probe_merge -j 16 >> $OUT/d/build.txt 2>&1 || { tail -20 $OUT/d/build.txt; exit 1; }
echo "built t=$(el)s"
for f in _ZN6ladder4sort5parts12merge_kernelILb0EEEvPKjS4_PjS5_mmPKm _ZN6ladder4sort5parts12merge_kernelILb1EEEvPKjS4_PjS5_mmPKm; do cuobjdump -sass -fun $f build-device/cuda-ladder > $OUT/d/sass-$f.txt 2>&1; echo "sass $f rc=$? $(wc -l < $OUT/d/sass-$f.txt) lines"; done
(cd build-device && timeout 200 ctest -R gpu_sort_parts_small --output-on-failure > $OUT/d/parts_small.log 2>&1)
echo "parts_small rc=$? t=$(el)s"; grep -E "tests passed|Passed|Failed" $OUT/d/parts_small.log | head -4
export LADDER_NO_GRAPHS=1 LADDER_SORT_PART_KEYS=100000
for F in 'Registry/*sort_v17*n1048583_uniform' 'Registry/*sort_pairs_v16*n1048583_few'; do
  G=${F//[\/*]/_}
  for tool in memcheck racecheck initcheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=merge_kernel --launch-count 4"
    timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      build-device/ladder-tests --gtest_filter="$F" > "$OUT/d/san-$G-$tool.log" 2>&1
    echo "$F $tool rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/d/san-$G-$tool.log" | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' "$OUT/d/san-$G-$tool.log" | head -1)"
  done
done
unset LADDER_NO_GRAPHS LADDER_SORT_PART_KEYS
LADDER_SORT_PART_KEYS=1000000 timeout 60 ./build-device/probes/sort_probe_merge 1990000 > $OUT/d/probe-2parts.txt 2>&1; echo "probe 2 parts rc=$?"; cat $OUT/d/probe-2parts.txt
LADDER_SORT_PART_KEYS=1000000 timeout 60 ./build-device/probes/sort_probe_merge 25600000 > $OUT/d/probe-26parts.txt 2>&1; echo "probe 26 parts rc=$?"; cat $OUT/d/probe-26parts.txt
timeout 200 ./build-device/probes/sort_probe_merge > $OUT/d/probe-2e32p5.txt 2>&1; echo "probe 2^32+5 rc=$? t=$(el)s"; cat $OUT/d/probe-2e32p5.txt
LADDER_HUGE_TESTS=sort timeout 150 ./build-device/ladder-tests --gtest_filter='Huge2e32/*sort_v17*' > $OUT/d/huge2e32-sort.log 2>&1
echo "huge sort rc=$? t=$(el)s"; grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) ' $OUT/d/huge2e32-sort.log | head
./build-device/cuda-ladder --ops=sort --sizes=2^32+5 --benchmark_filter='^sort/(v17_|cub/)' \
  --benchmark_repetitions=3 --verbose --results_dir=$OUT/d > $OUT/d/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"
grep -E "_median|left out|rror" $OUT/d/bench.txt | cut -c1-110
