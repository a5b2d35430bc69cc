#!/usr/bin/env bash
# ncu over the flat look-back scan's "published, warm" launches at 2^28: 256 x 1 (4 KB) and 256 x 4 (16 KB)
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1
cmake --build /tmp/b --target scan_probe_flat_small -j 16 2>&1 | grep -E "error|Built"
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis"
M="--metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct"
# flat_kernel launches per shape at 2^28: memset 32, cleared 32, control 2 + refill 1, published 32
for spec in "4KB 68" "16KB 464"; do
  set -- $spec
  timeout 200 ncu --clock-control none -k regex:flat_kernel --launch-skip $2 --launch-count 1 --kill yes $S $M \
    /tmp/b/probes/scan_probe_flat_small > $OUT/ncu-flat-$1-published.txt 2>&1
  echo "ncu $1 rc=$?"; grep -E "flat_kernel|Duration|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Warp Cycles Per Issued" $OUT/ncu-flat-$1-published.txt | head -30
done
