#!/bin/bash
# Session 24, call 3: ./p mirror3 twice: the mirror warp's parts (kMirrorBare: its waits in shared
# memory alone, at the claim or until the tile is reduced); then Nsight Compute's instructions,
# issue, shared-memory wavefronts, L2 sectors and stall reasons for three forms (one launch each).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 mirror3 > $OUT/probe_v15_mirror3-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_mirror3-run$r.txt
  grep mismatches $OUT/probe_v15_mirror3-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warps_active.avg.per_cycle_active
for c in "scan, Q THR 4" "scan, Q THR 4, mirror warp bare (ring only), statuses read" "scan, Q THR 4, mirror warp late, statuses read"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 90 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 mirror3 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_mirror3.txt 2>&1
grep "===\|__\|rror" $OUT/ncu_mirror3.txt | awk '{print $1, $(NF-1), $NF}'
