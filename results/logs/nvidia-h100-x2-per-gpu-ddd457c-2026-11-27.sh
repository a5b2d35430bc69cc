# On a two-GPU machine: scripts/run_per_gpu.sh with RESULTS.md's "Across GPUs" filter, sort's top rung v15.
set -uo pipefail
export LADDER_GIT_COMMIT=$(cat .dev/commit) NCCL_NVLS_ENABLE=0
nvidia-smi -L
S=$SECONDS
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 && cmake --build build-device -j "$(nproc)" --target cuda-ladder > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "build $((SECONDS - S)) s"
export PERGPU_FILTER='^(reduce/(v01|v12|cub)|scan/(v01|v15|v16|cub)|copy_if/(v01|v06|v08|cub).*keep50|histogram/(v01|v05|cub).*uniform|gelu_f32/(v01|v05|cub)|sort/(v15|cub/).*uniform)'
rm -rf results/per-gpu
bash scripts/run_per_gpu.sh build-device --ops=reduce,scan,copy_if,histogram,gelu_f32,sort \
  --benchmark_filter="$PERGPU_FILTER" --benchmark_repetitions=3 --benchmark_display_aggregates_only=true > $OUT/x2-per-gpu.log 2>&1
echo "pergpu rc=$? $((SECONDS - S)) s"; tail -25 $OUT/x2-per-gpu.log
cp results/per-gpu/device0/*.json $OUT/device0.json; cp results/per-gpu/device1/*.json $OUT/device1.json
ls results/per-gpu/*
