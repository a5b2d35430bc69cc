#!/usr/bin/env bash
# Session 16, call B (H200): why the probe's copy of v06 ran 9% slower than v06: grids, SASS, rerun.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/b
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pst > $OUT/b/build.txt 2>&1
echo "probe built rc=$? t=$(el)s"
cuobjdump -sass -fun '_ZN6ladder7copy_if3v0618specialized_kernelILb1ELb0EEEvPKiPiPymjPjS6_' /tmp/pst | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed -E 's@^\s+/\*[0-9a-f]+\*/\s*@@; s@\s*/\*.*@@; s@ ;@@' > /tmp/sass-v06.txt
cuobjdump -sass -fun '_ZN5probe6kernelILi1ELj8ELi0EEEvPKiPiPymjPjPv' /tmp/pst | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed -E 's@^\s+/\*[0-9a-f]+\*/\s*@@; s@\s*/\*.*@@; s@ ;@@' > /tmp/sass-probe.txt
wc -l /tmp/sass-v06.txt /tmp/sass-probe.txt
diff /tmp/sass-v06.txt /tmp/sass-probe.txt > $OUT/b/sass-diff-v06-probe.txt; echo "sass diff lines $(wc -l < $OUT/b/sass-diff-v06-probe.txt)"
head -40 $OUT/b/sass-diff-v06-probe.txt
stdbuf -oL timeout 200 /tmp/pst 0 > $OUT/b/probe_v06_stores-2e28keep50.txt 2>&1; echo "probe rc=$? t=$(el)s"
stdbuf -oL timeout 200 /tmp/pst 1 > $OUT/b/probe_v06_stores-2e28keep1.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -hE "^kernel|^summary|^  |control|WRONG|check .*mismatches [1-9]" $OUT/b/probe_v06_stores-*.txt | head -120
