#!/usr/bin/env bash
# The README's "Write your own rung", followed literally on a copy of the tree (the edits by sed).
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
rm -rf /tmp/rt && mkdir -p /tmp/rt && tar --exclude=./build-device --exclude=./.dev --exclude=./results -cf - . | tar -xf - -C /tmp/rt
cd /tmp/rt
python3 scripts/new_rung.py reduce two_per_thread --from simplest 2>&1 | tee $OUT/follow.log
sed -i 's|  smem\[tid\] = i < m ? in\[i\] : 0.0f;|  smem[tid] = (2 * i < m ? in[2 * i] : 0.0f) + (2 * i + 1 < m ? in[2 * i + 1] : 0.0f);|; s|return launch_tree(tile_kernel, kThreads, kThreads, in, out, n, ws, stream);|return launch_tree(tile_kernel, kThreads, 2 * kThreads, in, out, n, ws, stream);|' reduce/v13_two_per_thread.cuh
grep -n "smem\[tid\] =\|launch_tree" reduce/v13_two_per_thread.cuh | tee -a $OUT/follow.log
(cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /dev/null && cmake --build build -j 16 --target cuda-ladder > $OUT/follow-build.log 2>&1) || { tail -20 $OUT/follow-build.log; exit 1; }
echo "built $(( $(date +%s) - T0 ))s" | tee -a $OUT/follow.log
timeout 120 ./build/cuda-ladder --ops=reduce --mine > $OUT/follow-mine-right.log 2>&1; echo "mine rc=$?" | tee -a $OUT/follow.log
head -40 $OUT/follow-mine-right.log
sed -i 's|  smem\[tid\] = (2 \* i < m ? in\[2 \* i\] : 0.0f) + (2 \* i + 1 < m ? in\[2 \* i + 1\] : 0.0f);|  smem[tid] = 2 * i + 1 < m ? in[2 * i] + in[2 * i + 1] : 0.0f;  // off by one at odd sizes|' reduce/v13_two_per_thread.cuh
grep -n "smem\[tid\] =" reduce/v13_two_per_thread.cuh | tee -a $OUT/follow.log
cmake --build build -j 16 --target cuda-ladder > /dev/null 2>&1
timeout 60 ./build/cuda-ladder --ops=reduce --mine > $OUT/follow-mine-wrong.log 2>&1; echo "mine (wrong) rc=$?" | tee -a $OUT/follow.log
head -12 $OUT/follow-mine-wrong.log; tail -3 $OUT/follow-mine-wrong.log
echo "done $(( $(date +%s) - T0 ))s"
