#!/bin/bash
# Session 20, call 2: scan probe's cluster mode (one look-ahead a cluster), then ncu on two forms.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
timeout 150 /tmp/p15 stream > $OUT/probe_v15_stream.txt 2>&1; echo "cluster rc=$?"
grep -B2 -A20 '^summary' $OUT/probe_v15_stream.txt
grep 'clusters\|grid' $OUT/probe_v15_stream.txt
grep mismatches $OUT/probe_v15_stream.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,gpu__time_duration.sum
for c in "stream 2, Q THR 4, hold"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 100 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 stream 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_stream.txt 2>&1
grep -i "===\|duration\|sectors\|bytes\|error\|ERR" $OUT/ncu_stream.txt | cut -c1-150
