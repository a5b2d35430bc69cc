#!/usr/bin/env bash
set -x
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15.cu common/device.cu -o /tmp/probe15 || exit 1
ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy \
  --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct \
  /tmp/probe15 once > $OUT/ncu-scan-v15-h200.txt 2>&1
tail -c 200 $OUT/ncu-scan-v15-h200.txt
