#!/usr/bin/env bash
# Session 18: the sm_80 build (compute_80 PTX and sm_80 cubins; Hopper JIT-compiles) on add_f32:
# its GPU tests (v08 must skip itself, v09 must take v05's path on both sides of its bound) and
# one repetition of its benchmark.
set -u
T0=$(date +%s)
STEPS=arch80 ARCH80_FILTER='*add_f32*' ARCH80_OPS=add_f32 OUT=$OUT/arch80 GROUP_TIMEOUT=300 \
  bash scripts/device_run.sh > $OUT/steps.txt 2>&1
echo "done $(( $(date +%s) - T0 ))s"; tail -4 $OUT/steps.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED)" $OUT/arch80/arch80-tests.log
grep -E "add_f32/(v05|v08|v09|cub)[^ ]*/n:268435456" $OUT/arch80/arch80-bench.log | cut -c1-140
grep -i "skipped" $OUT/arch80/arch80-bench.log | head -3
