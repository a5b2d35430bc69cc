#!/bin/bash
# Session 21, call 10: ./p seqhold again, with kSeqEarly (the polls of the held form without the held tile), twice.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 seqhold > $OUT/probe_v15_seqhold-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_seqhold-run$r.txt
  grep 'grid\|clusters' $OUT/probe_v15_seqhold-run$r.txt
  grep mismatches $OUT/probe_v15_seqhold-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
