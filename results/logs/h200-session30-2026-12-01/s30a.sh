#!/bin/bash
# Session 30, call 1 (H200): copy_if/lab/probe_v06_oracle.cu's `lat` mode. Is the look-ahead's
# latency on the pipeline's path? The oracle with its look-ahead made slower by a known spin, the
# cycles each role waits (TIMES), and v10's look-ahead with a second look-ahead warp. Its checks
# and controls are the verdict.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
for m in lat; do
  timeout 400 /tmp/po $m > "$OUT/probe_v06_oracle_$m.txt" 2>&1
  echo "$m rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_$m.txt" | grep -v "^times" | tail -40
  grep "^times" "$OUT/probe_v06_oracle_$m.txt" | cut -c1-400
done
