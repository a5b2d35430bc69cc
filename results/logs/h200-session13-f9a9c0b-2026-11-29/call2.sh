#!/usr/bin/env bash
# Session 13, call 2 (H200): the rest of the README's test command (call 1's ctest ran out of its
# limit with 9 of 22 passed): `gpu` alone, then the others two at a time.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/t
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/t/build.txt 2>&1 &&
  cmake --build build-device -j 16 >> $OUT/t/build.txt 2>&1 || { tail -20 $OUT/t/build.txt; exit 1; }
echo "built t=$(( $(date +%s) - T0 ))s"
timeout 260 ctest --test-dir build-device --output-on-failure -R '^gpu$' > $OUT/t/ctest-gpu.log 2>&1
echo "ctest gpu rc=$? t=$(( $(date +%s) - T0 ))s"
grep -E "Test +#|tests passed|tests failed|Failed|\*\*\*|Total Test" $OUT/t/ctest-gpu.log | head
DONE='^(host|gpu|gpu_sort_v15_counted_small|gpu_sort_portions_small|gpu_sort_v16_hybrid_small|gpu_sort_v16_portions_small|gpu_sort_v16_bucket_256x10|gpu_sort_v16_bucket_256x18|gpu_sort_v16_bucket_256x36|gpu_sort_v16_bucket_1024x17)$'
timeout $(( 585 - ($(date +%s) - T0) )) ctest --test-dir build-device --output-on-failure -j 2 -E "$DONE" > $OUT/t/ctest-rest.log 2>&1
echo "ctest rest rc=$? t=$(( $(date +%s) - T0 ))s"
grep -E "Test +#|tests passed|tests failed|Failed|\*\*\*|Total Test" $OUT/t/ctest-rest.log | head -20
gzip $OUT/t/ctest-*.log
