#!/bin/bash
# Session 31, call 1 (H200): copy_if v11 (v11_pipelined_lookahead: v10 whose look-ahead issues the
# next claim's first pass before it sums the current claim's), never run before. The build (sm_90);
# copy_if's GPU tests with the workspace, EpochWrap and GroupSums tests; two benchmark processes
# (v10, v11, CUB; 2^24 and 2^28, every distribution, median of 5). Only if v11's median at 2^28
# and half kept is below v10's in the first process: v11 at 2^31 + 17, compute-sanitizer's four
# tools on v11's dispatch and workspace tests, and the sm_80 build's v11 tests.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if*:CopyIfWorkspace*:EpochWrap*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/tests.txt | head
for k in 1 2; do
  mkdir -p $OUT/bench$k
  timeout 100 ./build/cuda-ladder --ops=copy_if --sizes=2^24,2^28 \
    --benchmark_filter='^copy_if/(v10_group_sums|v11_pipelined_lookahead|cub)/' \
    --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench$k \
    > $OUT/bench$k/bench.txt 2>&1
  echo "bench$k rc=$? t=$(el)s"; grep median $OUT/bench$k/bench.txt | awk '{print $1, $2}'
done
med() { grep "copy_if/$1/n:268435456/dist:keep50/manual_time_median" $OUT/bench1/bench.txt | awk '{print $2}'; }
A=$(med v10_group_sums); B=$(med v11_pipelined_lookahead); echo "2^28 keep50: v10 $A v11 $B"
if awk "BEGIN{exit !($B < $A)}"; then
  (cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/configure80.txt 2>&1 &&
   cmake --build build80 -j6 --target ladder-tests > $OUT/build80.txt 2>&1; echo "build80 rc=$?" >> $OUT/build80.txt) &
  B80=$!
  LADDER_HUGE_TESTS=copy_if timeout 90 ./build/ladder-tests --gtest_filter='Huge/*copy_if_v11*' > $OUT/huge.txt 2>&1
  echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
  for tool in memcheck racecheck synccheck initcheck; do
    timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
      --gtest_filter='Dispatch*copy_if_v11*:CopyIfWorkspace*v11*' > $OUT/sanitizer-$tool.txt 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
  done
  wait $B80; tail -1 $OUT/build80.txt; echo "build80 t=$(el)s"
  timeout 120 build80/ladder-tests --gtest_filter='*copy_if_v11*:CopyIfWorkspace*v11*:GroupSums*:EpochWrap*:-Huge*' --gtest_brief=1 > $OUT/arch80.txt 2>&1
  echo "arch80 rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/arch80.txt | head -5
  cd $OUT && tar czf sanitizers.tgz sanitizer-*.txt && rm sanitizer-*.txt; tar czf misc.tgz configure80.txt build80.txt arch80.txt huge.txt && rm configure80.txt build80.txt arch80.txt huge.txt
fi
ls $OUT
