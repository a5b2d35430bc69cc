#!/bin/bash
# Session 30, call 6 (H200): copy_if/lab/probe_v06_oracle.cu's `lat3` mode, after call 2 (look-
# aheads that read at once, or once their tile's data is in, find the tiles below theirs
# unpublished and poll again): two or three look-ahead warps, each reading only DLY cycles after
# its claim was drawn. Its checks and controls are the verdict.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
for m in lat3; do
  timeout 400 /tmp/po $m > "$OUT/probe_v06_oracle_$m.txt" 2>&1
  echo "$m rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_$m.txt" | grep -v "^times" | tail -40
  grep "^times" "$OUT/probe_v06_oracle_$m.txt" | cut -c1-400
done
