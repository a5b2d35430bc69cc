#!/usr/bin/env bash
# The frozen per-GPU run through the device tool: one part a call (each under its 10-minute
# limit), $OUT packed into one tar at the end (the tool brings back at most 8 files; a run of
# 2026-11-29 lost four of the bench step's JSON files that way).
#   PART=A bash .dev/frozen_next.sh <commit, 12 hex>   build + bench (H200: build 60 s, bench 312 s)
#   PART=B ...   sweep (SWEEP_TOP_ONLY=1) of reduce, scan, copy_if, the histograms + unaligned
#   PART=C ...   sweep (SWEEP_TOP_ONLY=1) of the elementwise operators and sort
#   PART=D ...   sweep_large (2^29..2^31, 2 repetitions)
# (the committed sweeps are those two groups of operators: results/MANIFEST.json)
# Here: untar the four parts into one folder, then python3 scripts/freeze.py <folder>,
# python3 scripts/plots.py, python3 scripts/report.py.
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/frozen
if [ ! -x build-device/cuda-ladder ]; then
  STEPS=build OUT=$OUT/frozen bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
  echo "build done $(( $(date +%s) - T0 ))s"
fi
ops=
case "$PART" in
  A) steps="bench" ;;
  B) steps="sweep unaligned" ops=reduce,scan,copy_if,histogram,histogram_u8 ;;
  C) steps="sweep" ops=gelu_f32,gelu_f16,fused_f32,fused_f16,add_f32,sort,sort_pairs ;;
  D) steps="sweep_large" ;;
  *) echo "PART must be A, B, C or D"; exit 2 ;;
esac
SWEEP_OPS=$ops STEPS="$steps" SWEEP_TOP_ONLY=1 OUT=$OUT/frozen GROUP_TIMEOUT=${GT:-450} bash scripts/device_run.sh > $OUT/steps-$PART.txt 2>&1
echo "part $PART done $(( $(date +%s) - T0 ))s"; grep "rc=" $OUT/frozen/run.log
grep -c "verified=1" $OUT/frozen/bench.log
ls $OUT/frozen
cd $OUT && tar czf part-$PART.tgz frozen steps-$PART.txt && rm -rf frozen && ls -la
