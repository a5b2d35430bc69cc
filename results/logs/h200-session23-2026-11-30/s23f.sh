#!/bin/bash
# Session 23, call 6: ./p pubwarp twice: the statuses published by one more warp from a ring in
# shared memory (kPubWarp), so that no warp the pipeline waits on stores to a polled line: beside
# the separate poller of status lines, and in the scan (at the claim and late).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 pubwarp > $OUT/probe_v15_pubwarp-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_pubwarp-run$r.txt
  grep 'grid' $OUT/probe_v15_pubwarp-run$r.txt | sort | uniq -c
  grep mismatches $OUT/probe_v15_pubwarp-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
