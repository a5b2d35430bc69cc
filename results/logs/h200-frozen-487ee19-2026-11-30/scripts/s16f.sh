#!/usr/bin/env bash
# Session 16, call F (H200): Nsight Compute counters (scripts/ncu_counters.sh) of the rungs whose
# kernels changed at 487ee19 (scan v14, v15; copy_if v06, v07), from the frozen tree's build.
set -u
C=$(sed -n 's/^COMMIT=//p' .dev/frozen_gpu.sh)
export LADDER_GIT_COMMIT=$C
cd .dev/clean || exit 1
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/f/ncu
STEPS=build OUT=$OUT/f bash scripts/device_run.sh > $OUT/f/build.txt 2>&1 || { tail -30 $OUT/f/build.txt; exit 1; }
echo "built $C t=$(el)s"
NCU_SLUGS='v14|v15' bash scripts/ncu_counters.sh build-device $OUT/f/ncu 4194304 scan; echo "scan rc=$? t=$(el)s"
NCU_SLUGS='v06|v07' bash scripts/ncu_counters.sh build-device $OUT/f/ncu 4194304 copy_if; echo "copy_if rc=$? t=$(el)s"
ls $OUT/f/ncu; cat $OUT/f/ncu/summary.md | head -30
cd $OUT && tar czf f.tgz f && rm -rf f
