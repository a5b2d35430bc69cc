#!/bin/bash
# Session 29, call 8 (H200): copy_if/lab/probe_v06_oracle.cu's `gprepub` mode (v10's look-ahead
# on statuses and group words published before the launch), written after v10. Its checks and
# controls are the verdict.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
for m in gprepub; do
  timeout 300 /tmp/po $m > "$OUT/probe_v06_oracle_$m.txt" 2>&1
  echo "$m rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_$m.txt" | tail -70
done
