#!/bin/bash
# Session 23, call 4: ./p partner twice: the far window a poller reads, written a word a claim by
# the next block, the other block on the poller's SM, a block on the SM next to it by rank (r ^ 1)
# or on one half the SMs away (kPartner*, a table of every block's %smid first).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 partner > $OUT/probe_v15_partner-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_partner-run$r.txt
  grep mismatches $OUT/probe_v15_partner-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
  grep -c "no partner" $OUT/probe_v15_partner-run$r.txt
done
