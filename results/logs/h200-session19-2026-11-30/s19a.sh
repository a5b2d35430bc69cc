#!/bin/bash
# session 19 call a: producer throttle probes (scan v15 copy, copy_if v06 copy)
set -x
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
git log -1 --format=%H 2>/dev/null | tee $OUT/commit.txt
(nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno) &
(nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/p06 2>&1 | grep -v Wno) &
wait
/tmp/p15 throttle > $OUT/probe_v15_throttle.txt 2>&1
grep -A40 '^summary' $OUT/probe_v15_throttle.txt
for i in 0 2 3; do PROBE_THROTTLE=1 /tmp/p06 $i >> $OUT/probe_v06_throttle.txt 2>&1; done
grep -A12 '^summary\|control' $OUT/probe_v06_throttle.txt
grep -c 'mismatches 0' $OUT/probe_v15_throttle.txt; grep -v 'mismatches 0' $OUT/probe_v15_throttle.txt | grep mismatches
grep check $OUT/probe_v06_throttle.txt | grep -v 'count ok, mismatches 0' 
