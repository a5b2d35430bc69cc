#!/bin/bash
# Next session, call 1 (prepared in session 22, not yet run): ./p sep2 twice. Does a polled line
# cost because other SMs write it, or because it is written while polled?
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 120 /tmp/p15 sep2 > $OUT/probe_v15_sep2-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_sep2-run$r.txt
  grep 'grid' $OUT/probe_v15_sep2-run$r.txt | sort | uniq -c
  grep mismatches $OUT/probe_v15_sep2-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
# then ./p c4 twice: the plain pipeline launched in clusters of 2 and 4 (kClusterOnly), beside the
# cluster forms that share a look-ahead: what the cluster launch alone costs.
for r in 1 2; do
  timeout 120 /tmp/p15 c4 > $OUT/probe_v15_c4-run$r.txt 2>&1; echo "c4 run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_c4-run$r.txt
  grep 'grid\|clusters' $OUT/probe_v15_c4-run$r.txt | sort | uniq -c
  grep mismatches $OUT/probe_v15_c4-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
