#!/bin/bash
# Session 28, call 4 (H200): the new EpochWrap tests (scan v18 and copy_if v09: the epoch preset to
# 2^31 - 2, three launches, the header read after each) with the workspace tests; then two mutants of
# copy_if v09, each built and run against them, which must fail: (A) no epoch advance at the last
# claim, (B) the advance without the mask (the epoch runs into the tag bit at the wrap).
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
F=copy_if/v09_epoch_statuses.cuh
grep -c "counter\[1\] = (epoch + 1) & ~lb::kTagBit;" $F || exit 1
cmake -S . -B build > /dev/null && cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
FILTER='EpochWrap*:CopyIfWorkspace*v09*:ScanWorkspace*v18*'
timeout 200 ./build/ladder-tests --gtest_filter="$FILTER" > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED) " $OUT/tests.txt | head
cp $F /tmp/v09.orig
for m in A B; do
  cp /tmp/v09.orig $F
  if [ $m = A ]; then sed -i 's/^ *counter\[1\] = (epoch + 1) & ~lb::kTagBit;$//' $F; else sed -i 's/counter\[1\] = (epoch + 1) & ~lb::kTagBit;/counter[1] = epoch + 1;/' $F; fi
  echo "mutant $m: $(diff /tmp/v09.orig $F | tr '\n' ' ')"
  cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE ' error' | head -3
  echo "mutant $m built t=$(el)s"
  timeout 200 ./build/ladder-tests --gtest_filter='EpochWrap*copy_if*:CopyIfWorkspace*v09*' > $OUT/mutant-$m.txt 2>&1
  echo "mutant $m rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED) |Expected|Which is|actual|epoch" $OUT/mutant-$m.txt | head -12
done
cp /tmp/v09.orig $F
