#!/bin/bash
# Session 29, call 3 (H200): copy_if v10 (v10_group_sums: v09 with group sums for its look-ahead),
# never run as a rung before. Builds (sm_90, and -DCMAKE_CUDA_ARCHITECTURES=80 beside it); copy_if's
# GPU tests with the workspace, EpochWrap and the new GroupSums tests; v10 at 2^31 + 17;
# compute-sanitizer's four tools on v10's dispatch and workspace tests; the sm_80 build's copy_if
# v10 tests; one benchmark process (v09, v10, CUB; 2^24 and 2^28; keep50, keep1, keep99); then
# three mutants of v10, each rebuilt and run against GroupSums, which must fail it: (A) no clear,
# (B) the clear as far as this launch's own extent, not the launch before's, (C) no arrivals added.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
F=copy_if/v10_group_sums.cuh
[ "$(grep -c 'groups\[other \* kGroupArrayWords + g \* kGroupStride\] = 0;' $F)" = 1 ] || exit 1
[ "$(grep -c 'const unsigned used = counter\[2 + other\];' $F)" = 1 ] || exit 1
[ "$(grep -c '(1ull << 32) | total);' $F)" = 1 ] || exit 1
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
(cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/configure80.txt 2>&1 &&
 cmake --build build80 -j8 --target ladder-tests > $OUT/build80.txt 2>&1; echo "build80 rc=$?" >> $OUT/build80.txt) &
B80=$!
timeout 240 ./build/ladder-tests --gtest_filter='*copy_if*:CopyIfWorkspace*:EpochWrap*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/tests.txt | head
LADDER_HUGE_TESTS=copy_if timeout 90 ./build/ladder-tests --gtest_filter='Huge/*copy_if_v10*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
for tool in memcheck racecheck synccheck initcheck; do
  timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*copy_if_v10*:CopyIfWorkspace*v10*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
wait $B80; tail -1 $OUT/build80.txt; echo "build80 t=$(el)s"
timeout 120 build80/ladder-tests --gtest_filter='*copy_if_v10*:CopyIfWorkspace*v10*:GroupSums*:-Huge*' --gtest_brief=1 > $OUT/arch80.txt 2>&1
echo "arch80 rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests from" $OUT/arch80.txt | head -5
mkdir -p $OUT/bench
timeout 100 ./build/cuda-ladder --ops=copy_if --sizes=2^24,2^28 \
  --benchmark_filter='^copy_if/(v09_epoch_statuses|v10_group_sums|cub)/' \
  --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/bench \
  > $OUT/bench/bench.txt 2>&1
echo "bench rc=$? t=$(el)s"; grep median $OUT/bench/bench.txt | awk '{print $1, $2}'
cp $F /tmp/v10.orig
for m in A B C; do
  [ $(el) -gt 480 ] && { echo "mutant $m not run: t=$(el)s"; continue; }
  cp /tmp/v10.orig $F
  case $m in
    A) sed -i 's/groups\[other \* kGroupArrayWords + g \* kGroupStride\] = 0;/groups[other * kGroupArrayWords + g * kGroupStride] |= 0;/' $F ;;
    B) sed -i 's/const unsigned used = counter\[2 + other\];/const unsigned used = (tiles + kGroup - 1) \/ kGroup;/' $F ;;
    C) sed -i 's/(1ull << 32) | total);/(unsigned long long)total);/' $F ;;
  esac
  echo "mutant $m: $(diff /tmp/v10.orig $F | tr '\n' ' ')"
  cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE ' error' | head -3
  echo "mutant $m built t=$(el)s"
  timeout 60 ./build/ladder-tests --gtest_filter='GroupSums*' > $OUT/mutant-$m.txt 2>&1
  echo "mutant $m rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED) |Expected|Which is|actual|group words|extent" $OUT/mutant-$m.txt | head -8
done
cp /tmp/v10.orig $F
cd $OUT && tar czf sanitizers.tgz sanitizer-*.txt && rm sanitizer-*.txt && tar czf mutants.tgz mutant-*.txt 2>/dev/null && rm -f mutant-*.txt; tar czf misc.tgz configure80.txt build80.txt arch80.txt huge.txt gpu.txt && rm configure80.txt build80.txt arch80.txt huge.txt gpu.txt; ls $OUT
