#!/bin/bash
# Session 30, call 8 (H200): copy_if/lab/probe_v06_oracle.cu's `lat4` mode: a look-ahead pass's
# time split into its loads (issue to all back) and the rest (the ballots and sums that use them),
# for v10's look-ahead live and on statuses published before, and the oracle's one load. Its checks
# and controls are the verdict.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
for m in lat4; do
  timeout 400 /tmp/po $m > "$OUT/probe_v06_oracle_$m.txt" 2>&1
  echo "$m rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_$m.txt" | grep -v "^times" | grep -v "^split" | tail -40
  grep -E "^(times|split)" "$OUT/probe_v06_oracle_$m.txt" | cut -c1-260
  done
