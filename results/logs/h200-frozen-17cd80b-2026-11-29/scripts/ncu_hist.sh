#!/usr/bin/env bash
# histogram v05's counters with its grid of sqrt(vectors / 16) blocks (9f9dae1; kernels as 17cd80b):
# scripts/ncu_counters.sh over v05 of both histograms at its default size, into $OUT/ncu.
T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
export LADDER_GIT_COMMIT=$1
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build.txt 2>&1 &&
  cmake --build build-device --target cuda-ladder -j 16 >> $OUT/build.txt 2>&1 || { tail -20 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
NCU_SLUGS='v05' timeout 150 bash scripts/ncu_counters.sh build-device $OUT/ncu 4194304 histogram,histogram_u8
echo "ncu rc=$? $(( $(date +%s) - T0 ))s"; ls $OUT/ncu
