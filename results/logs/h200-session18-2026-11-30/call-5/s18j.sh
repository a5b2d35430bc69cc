#!/usr/bin/env bash
# Session 18: sort v17's dispatch test at its last bound alone (2^32 - 1 and 2^32 keys, uniform
# and few, two poisoned runs each), through LADDER_DISPATCH_FROM.
set -u
export LADDER_GIT_COMMIT=$(cat .dev/commit 2>/dev/null)
T0=$(date +%s)
STEPS=build OUT=$OUT/b bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "built $(( $(date +%s) - T0 ))s"
LADDER_HUGE_TESTS=sort LADDER_DISPATCH_FROM=4294967295 timeout 220 build-device/ladder-tests \
  --gtest_filter='Dispatch/*sort_v17*' > $OUT/dispatch-2e32.txt 2>&1
echo "tests rc=$? $(( $(date +%s) - T0 ))s"; tail -8 $OUT/dispatch-2e32.txt
rm -rf $OUT/b
