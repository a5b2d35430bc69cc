#!/bin/bash
# Session 28, call 2 (H200): copy_if/lab/probe_v06_oracle.cu `seq`: the sequencer forms (one warp
# reads every status and writes the prefixes in bursts; each look-ahead polls one word) beside CUB,
# v09, the oracle and v07; then the epoch probe's `sizes` again with the control's seed mended.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po &
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_epoch.cu common/device.cu -o /tmp/pe &
wait
ls -la /tmp/po /tmp/pe || exit 1
echo "built t=$(el)s"
timeout 300 /tmp/po seq > "$OUT/probe_v06_oracle_seq.txt" 2>&1
echo "seq rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_seq.txt" | tail -70
timeout 120 /tmp/pe sizes 4194304,5242880,6291456,7340032,8388608 > "$OUT/probe_v06_epoch_sizes.txt" 2>&1
echo "epoch rc=$? t=$(el)s"; grep -E "^control|^n =" "$OUT/probe_v06_epoch_sizes.txt"
