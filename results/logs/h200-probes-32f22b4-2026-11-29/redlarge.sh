T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
export LADDER_GIT_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/c.log 2>&1 && cmake --build /tmp/b --target cuda-ladder -j 16 >>/tmp/c.log 2>&1; echo "build rc=$? $(( $(date +%s) - T0 ))s"
timeout 300 /tmp/b/cuda-ladder --ops=reduce,add_f32 --sizes=2^28,2^29,2^30,2^31 --benchmark_filter='^(reduce/(v12_|cub/)|add_f32/(v05_|cub/))' --benchmark_repetitions=3 --benchmark_out=$OUT/reduce-add-large.json --benchmark_out_format=json > $OUT/reduce-add-large.log 2>&1; echo "rc=$? $(( $(date +%s) - T0 ))s"
grep -E "_median" $OUT/reduce-add-large.log | cut -c1-100
