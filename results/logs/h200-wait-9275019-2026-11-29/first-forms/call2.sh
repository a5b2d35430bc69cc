#!/usr/bin/env bash
# build, the two wait/PDL probes, the scan and copy_if GPU tests
T0=$(date +%s)
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release > $OUT/build.txt 2>&1
cmake --build build-device -j 16 --target cuda-ladder ladder-tests scan_probe_v15_wait copy_if_probe_v06_wait >> $OUT/build.txt 2>&1 || { grep -E "error" $OUT/build.txt | head; exit 1; }
echo "built $(( $(date +%s) - T0 ))s"
./build-device/probes/scan_probe_v15_wait > $OUT/probe_v15_wait.txt 2>&1; echo "scan probe rc=$? $(( $(date +%s) - T0 ))s"
./build-device/probes/copy_if_probe_v06_wait > $OUT/probe_v06_wait.txt 2>&1; echo "copy_if probe rc=$? $(( $(date +%s) - T0 ))s"
./build-device/ladder-tests --gtest_filter='*scan*:*copy_if*' --gtest_brief=1 > $OUT/tests-scan-copy_if.txt 2>&1; echo "tests rc=$? $(( $(date +%s) - T0 ))s"
tail -5 $OUT/tests-scan-copy_if.txt
grep -A7 summary $OUT/probe_*.txt | grep -v "^--"
grep -c "mismatches 0" $OUT/probe_*.txt; grep -v "mismatches 0" $OUT/probe_*.txt | grep round
