#!/bin/bash
# Session 20, call 7: ./p late (kStream + kHandLate, back-off), then Nsight Compute's throughput
# breakdown and L2 tables on three forms: what the look-ahead's reads contend for.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
timeout 150 /tmp/p15 late > $OUT/probe_v15_late.txt 2>&1; echo "late rc=$?"
grep -A20 '^summary' $OUT/probe_v15_late.txt
grep mismatches $OUT/probe_v15_late.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
M=breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum
for c in "scan, Q THR 4" "scan, Q THR 4, no look (timing)" "stream 2, Q THR 4, hand late"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 150 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --section MemoryWorkloadAnalysis_Tables --metrics $M /tmp/p15 late 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_late.txt 2>&1
grep -i "===\|duration\|ltcfabric\|lts__\|fabric\|error\|ERR" $OUT/ncu_late.txt | cut -c1-140 | head -120
