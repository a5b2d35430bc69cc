T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
export LADDER_GIT_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
echo "commit $LADDER_GIT_COMMIT"; git status --short | head
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/c.log 2>&1 && cmake --build /tmp/b --target cuda-ladder -j 16 >>/tmp/c.log 2>&1; echo "build rc=$? $(( $(date +%s) - T0 ))s"
timeout 480 /tmp/b/cuda-ladder --ops=sort --sizes=2^29,2^30,2^31 --benchmark_filter='^sort/(v16_|cub/).*dist:(sorted|few)' --benchmark_repetitions=2 --benchmark_out=$OUT/sort-large-sorted-few.json --benchmark_out_format=json > $OUT/sort-large-sorted-few.log 2>&1; echo "rc=$? $(( $(date +%s) - T0 ))s"
grep -E "_median|verified=0" $OUT/sort-large-sorted-few.log | grep -v "_cv\|stddev" | cut -c1-150
