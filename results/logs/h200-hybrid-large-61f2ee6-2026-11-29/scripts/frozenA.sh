#!/usr/bin/env bash
# frozen run, part A: build, v16's GPU tests, the ladder groups (bench)
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/frozen
STEPS=build OUT=$OUT/frozen bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
( cd build-device && timeout 150 ctest -R 'gpu_sort_v16_(hybrid_small|portions_small|bucket_1024x34)' --output-on-failure > $OUT/ctest-v16.log 2>&1; echo "ctest rc=$?" >> $OUT/ctest-v16.log )
tail -6 $OUT/ctest-v16.log
echo "ctest done $(( $(date +%s) - T0 ))s"
grep -q "ctest rc=0" $OUT/ctest-v16.log || exit 1
STEPS=bench OUT=$OUT/frozen GROUP_TIMEOUT=200 bash scripts/device_run.sh > $OUT/bench.txt 2>&1
echo "bench done $(( $(date +%s) - T0 ))s"; tail -5 $OUT/bench.txt; grep "rc=" $OUT/frozen/run.log
ls $OUT/frozen; grep -c "verified=1" $OUT/frozen/bench.log; grep -ci "verified=0\|mismatch" $OUT/frozen/bench.log
