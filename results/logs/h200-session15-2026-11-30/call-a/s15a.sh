#!/usr/bin/env bash
# Session 15, call A (H200): build; the parts road's tests (the workspace fix); probe_merge small
# (LADDER_SORT_PART_KEYS) and at 2^32 + 5.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/a
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/a/nvidia-smi.txt 2>&1
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/a/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/a/build.txt 2>&1 || { tail -20 $OUT/a/build.txt; exit 1; }
echo "built t=$(el)s"
(cd build-device && timeout 200 ctest -R gpu_sort_parts_small --output-on-failure > $OUT/a/parts_small.log 2>&1)
echo "parts_small rc=$? t=$(el)s"
grep -E "tests passed|Passed|Failed|PASSED|FAILED" $OUT/a/parts_small.log | head -6
LADDER_SORT_PART_KEYS=1000000 timeout 120 ./build-device/probes/sort_probe_merge 25600000 > $OUT/a/probe_merge-small.txt 2>&1
echo "probe small rc=$? t=$(el)s"; cat $OUT/a/probe_merge-small.txt
timeout 240 ./build-device/probes/sort_probe_merge > $OUT/a/probe_merge-2e32p5.txt 2>&1
echo "probe 2^32+5 rc=$? t=$(el)s"; cat $OUT/a/probe_merge-2e32p5.txt
