#!/bin/bash
set -x
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
timeout 90 /tmp/p15 claims > $OUT/probe_v15_claims.txt 2>&1
grep -A40 '^summary' $OUT/probe_v15_claims.txt
grep mismatches $OUT/probe_v15_claims.txt | grep -v "mismatches 0 " | cut -c1-60 | sort | uniq -c
