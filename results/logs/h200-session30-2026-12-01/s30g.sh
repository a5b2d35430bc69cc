#!/bin/bash
# Session 30, call 7 (H200): copy_if/lab/probe_v06_oracle.cu's `paired2` mode, after call 4 (two
# tiles a claim lost: the producer waited for two empty stages): two tiles a claim, the second
# loaded when the next stage frees (copy_if/lab/paired_stagewise.cuh). Its checks and controls are
# the verdict.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
for m in paired2; do
  timeout 400 /tmp/po $m > "$OUT/probe_v06_oracle_$m.txt" 2>&1
  echo "$m rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_$m.txt" | grep -v "^times" | tail -40
  done
