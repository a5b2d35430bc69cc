#!/usr/bin/env bash
set -x
mkdir -p /tmp/nola
sed -e 's/scan::v15 {/scan::v15_nola {/' -e '/lookback::advance_to<WIN>/d' scan/v15_warp_specialized.cuh > /tmp/nola/v15_nola.cuh
nvcc -O3 -std=c++17 -arch=sm_90 -I. -I/tmp/nola -DPROBE_NO_LOOKAHEAD -diag-suppress 177,550 scan/lab/probe_v15.cu common/device.cu -o /tmp/probe15 || exit 1
/tmp/probe15 h200 2>&1 | tee $OUT/probe-scan-v15-h200-b.txt
