#!/bin/bash
# Session 30, call 9 (H200): copy_if v11 (v11_one_reduction: v10 whose look-ahead sums each pass
# with one warp reduction instead of three), never run before (calls 3 to 5's v11s went to
# copy_if/lab/). The probe's `fused` mode (v10, v11, the oracle); the build (sm_90, and sm_80
# beside it);
# copy_if's GPU tests with the workspace, EpochWrap and GroupSums tests; v11 at 2^31 + 17;
# compute-sanitizer's four tools on v11's dispatch and workspace tests; the sm_80 build's v11
# tests; one benchmark process (v10, v11, CUB; 2^24 and 2^28); then two mutants of v11, each
# rebuilt and run against copy_if's v11 tests, which must fail them: (M1) the groups counted even
# where the head's run was short, (M2) the tail counted even where the groups' run was short.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
F=copy_if/v11_one_reduction.cuh
[ "$(grep -c '^        run_head < n_head$' $F)" = 1 ] || exit 1
[ "$(grep -c 'run_tail = run_head < n_head || run_group < n_groups$' $F)" = 1 ] || exit 1
(cmake -S . -B build > /dev/null && cmake --build build -j12 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head; echo "built t=$(el)s") &
BB=$!
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "probe built t=$(el)s"
wait $BB
timeout 200 /tmp/po fused > $OUT/probe_v06_oracle_fused.txt 2>&1
echo "fused rc=$? t=$(el)s"; grep -E "^summary|^  |control" $OUT/probe_v06_oracle_fused.txt | cut -c1-150
(cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/configure80.txt 2>&1 &&
 cmake --build build80 -j6 --target ladder-tests > $OUT/build80.txt 2>&1; echo "build80 rc=$?" >> $OUT/build80.txt) &
B80=$!
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if*:CopyIfWorkspace*:EpochWrap*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/tests.txt | head
LADDER_HUGE_TESTS=copy_if timeout 90 ./build/ladder-tests --gtest_filter='Huge/*copy_if_v11*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
mkdir -p $OUT/bench
timeout 100 ./build/cuda-ladder --ops=copy_if --sizes=2^24,2^28 \
  --benchmark_filter='^copy_if/(v10_group_sums|v11_one_reduction|cub)/' \
  --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench \
  > $OUT/bench/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"; grep median $OUT/bench/bench.txt | awk '{print $1, $2}'
for tool in memcheck racecheck synccheck initcheck; do
  timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*copy_if_v11*:CopyIfWorkspace*v11*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
wait $B80; tail -1 $OUT/build80.txt; echo "build80 t=$(el)s"
timeout 120 build80/ladder-tests --gtest_filter='*copy_if_v11*:CopyIfWorkspace*v11*:GroupSums*:EpochWrap*:-Huge*' --gtest_brief=1 > $OUT/arch80.txt 2>&1
echo "arch80 rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/arch80.txt | head -5
cp $F /tmp/v11.orig
for m in M1 M2; do
  [ $(el) -gt 470 ] && { echo "mutant $m not run: t=$(el)s"; continue; }
  cp /tmp/v11.orig $F
  case $m in
    M1) sed -i 's/^        run_head < n_head$/        false/' $F ;;
    M2) sed -i 's/run_tail = run_head < n_head || run_group < n_groups$/run_tail = run_head < n_head/' $F ;;
  esac
  echo "mutant $m: $(diff /tmp/v11.orig $F | tr '\n' ' ')"
  cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE ' error' | head -3
  echo "mutant $m built t=$(el)s"
  timeout 60 ./build/ladder-tests --gtest_filter='*copy_if_v11*:GroupSums*v11*:EpochWrap*v11*:CopyIfWorkspace*v11*:-Huge*' --gtest_brief=1 > $OUT/mutant-$m.txt 2>&1
  echo "mutant $m rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED) |tests from" $OUT/mutant-$m.txt | head -4; grep -c "^\[  FAILED  \]" $OUT/mutant-$m.txt
done
cp /tmp/v11.orig $F
cd $OUT && tar czf sanitizers.tgz sanitizer-*.txt && rm sanitizer-*.txt && tar czf mutants.tgz mutant-*.txt 2>/dev/null && rm -f mutant-*.txt; tar czf misc.tgz configure80.txt build80.txt arch80.txt huge.txt gpu.txt && rm configure80.txt build80.txt arch80.txt huge.txt gpu.txt; ls $OUT
