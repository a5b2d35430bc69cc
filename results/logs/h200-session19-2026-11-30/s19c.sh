#!/bin/bash
# session 19 call c: Nsight Compute on four forms of the probe's scan at 2^28
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
for c in "scan, Q THR 4" "scan, Q THR 4, no look (timing)" "scan, Q THR 4, pad 32 B" "scan, Q THR 4, hold"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 100 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics $M /tmp/p15 wait 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_parts.txt 2>&1
grep -i "===\|duration\|throughput\|bytes_\|sectors\|hit rate\|error\|ERR" $OUT/ncu_parts.txt | cut -c1-150
