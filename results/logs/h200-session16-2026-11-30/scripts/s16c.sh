#!/usr/bin/env bash
# Session 16, call C (H200): where the stages start (dynamic shared memory's alignment), v06's shape.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/c
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pst > $OUT/c/build.txt 2>&1
echo "probe built rc=$? t=$(el)s"
PROBE_PADS=1 stdbuf -oL timeout 250 /tmp/pst 0 > $OUT/c/probe_v06_stores-pads-2e28keep50.txt 2>&1; echo "probe rc=$? t=$(el)s"
PROBE_PADS=1 stdbuf -oL timeout 250 /tmp/pst 1 > $OUT/c/probe_v06_stores-pads-2e28keep1.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -h "out+0" $OUT/c/probe_v06_stores-pads-2e28keep50.txt | sed -E 's/check (.{28}).*stages at/\1/'
grep -hE "^summary|^  |control|WRONG|check .*mismatches [1-9]" $OUT/c/probe_v06_stores-pads-*.txt | head -80
