#!/usr/bin/env bash
# Session 15, call H (H200): the merge round at 128 x 21: build; the parts road's tests;
# compute-sanitizer's four tools; v17 and CUB at 2^32 + 5; the probe at 2^32 + 5; the sm_80
# build's parts tests if time allows.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/h
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/h/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/h/build.txt 2>&1 &&
  cmake --build build-device --target sort_probe_merge -j 16 >> $OUT/h/build.txt 2>&1 || { tail -20 $OUT/h/build.txt; exit 1; }
echo "built t=$(el)s"
(cd build-device && timeout 200 ctest -R gpu_sort_parts_small --output-on-failure > $OUT/h/parts_small.log 2>&1)
echo "parts_small rc=$? t=$(el)s"; grep -E "tests passed|Passed|Failed" $OUT/h/parts_small.log | head -4
export LADDER_NO_GRAPHS=1 LADDER_SORT_PART_KEYS=100000
for F in 'Registry/*sort_v17*n1048583_uniform' 'Registry/*sort_pairs_v16*n1048583_few'; do
  for tool in memcheck racecheck initcheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=merge_kernel --launch-count 4"
    timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      build-device/ladder-tests --gtest_filter="$F" > /tmp/san.log 2>&1
    echo "$F $tool rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1) $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/san.log | head -1)"
  done
done
unset LADDER_NO_GRAPHS LADDER_SORT_PART_KEYS
./build-device/cuda-ladder --ops=sort --sizes=2^32+5 --benchmark_filter='^sort/(v17_|cub/)' \
  --benchmark_repetitions=3 --verbose --results_dir=$OUT/h > $OUT/h/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"
grep -E "_median|left out|rror" $OUT/h/bench.txt | cut -c1-110
timeout 120 ./build-device/probes/sort_probe_merge > $OUT/h/probe-2e32p5.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -E 'shipped|cudaMemcpy|128 x 21|splits' $OUT/h/probe-2e32p5.txt
if [ $(el) -lt 330 ]; then
  cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/h/build80.txt 2>&1 &&
    cmake --build build80 -j 16 --target ladder-tests >> $OUT/h/build80.txt 2>&1 || { tail -20 $OUT/h/build80.txt; exit 1; }
  echo "built80 t=$(el)s"
  LADDER_SORT_PART_KEYS=1000000 timeout 160 ./build80/ladder-tests \
    --gtest_filter='*sort_v17*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/h/arch80-parts_small.log 2>&1
  echo "arch80 parts_small rc=$? t=$(el)s"
  grep -E "tests ran|PASSED|FAILED|SKIPPED \]" $OUT/h/arch80-parts_small.log | head -6
else
  echo "sm_80 build skipped at t=$(el)s"
fi
