#!/usr/bin/env bash
# The frozen commit's per-GPU run, in stages that fit one device call:
#   bash .dev/frozen.sh STAGE... (groups: sort copy_if reduce scan histogram elementwise axis
#   transfer; sweep1 sweep2: the top-only sweeps; quick: --quick; before: fbfd383's --quick from
#   .dev/base; pergpu: run_per_gpu.sh over every GPU). A stage starts only if its estimate fits
#   LIMIT seconds from the start; everything lands in one tar in $OUT.
set -uo pipefail
START=$SECONDS
LIMIT=${LIMIT:-560}
export LADDER_GIT_COMMIT=$(cat .dev/commit)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi -L
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
if [ -n "${REQUIRE:-}" ] && ! nvidia-smi -L | grep -q "$REQUIRE"; then echo "not $REQUIRE: exit"; exit 3; fi
W=/tmp/frozen-$$; mkdir -p "$W"
# The frozen commit's own tree (git archive of it, results/ left out), where carried.
HERE=$PWD
[ -d .dev/tree/scripts ] && cd .dev/tree
echo "building and running the tree in $PWD"
est() { case $1 in sort) echo 200;; copy_if) echo 120;; reduce) echo 40;; scan) echo 50;;
  histogram) echo 110;; elementwise) echo 110;; axis) echo 60;; transfer) echo 60;;
  sweep1) echo 60;; sweep2) echo 90;; quick) echo 40;; before) echo 200;; pergpu) echo 150;;
  tests37) echo 150;; san37) echo 200;; *) echo 100;; esac; }
wrap() { python3 -c '
import resource, subprocess, sys, time
t = time.time(); r = subprocess.run(sys.argv[1:])
print("wall %.1f s, peak RSS of the child %.2f GB, rc %d" % (time.time() - t,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6, r.returncode))' "$@"; }
if [ ! -x build-device/cuda-ladder ]; then
  OUT=$W STEPS=build bash scripts/device_run.sh || { tar -czf "$OUT/frozen-$gpu-fail.tar.gz" -C "$W" .; exit 1; }
  echo "build done at $((SECONDS - START)) s" | tee -a "$W/stages.log"
fi
for st in "$@"; do
  if (( SECONDS - START + $(est "$st") > LIMIT )); then echo "NOT RUN (time): $st" | tee -a "$W/stages.log"; continue; fi
  t0=$SECONDS
  case $st in
    sweep1) OUT=$W STEPS=sweep SWEEP_TOP_ONLY=1 SWEEP_OPS=reduce,scan,copy_if,histogram,histogram_u8 bash scripts/device_run.sh ;;
    sweep2) OUT=$W STEPS=sweep SWEEP_TOP_ONLY=1 SWEEP_OPS=gelu_f32,gelu_f16,fused_f32,fused_f16,add_f32,sort,sort_pairs bash scripts/device_run.sh ;;
    quick) mkdir -p "$W/quick"; wrap build-device/cuda-ladder --quick --results_dir="$W/quick" >"$W/quick.log" 2>&1; tail -3 "$W/quick.log" ;;
    before)
      ( cd "$HERE/.dev/base" && cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
        cmake --build build-device -j "$(nproc)" --target cuda-ladder >"$W/before-build.log" 2>&1 ) || { echo "before: build failed"; tail -20 "$W/before-build.log"; }
      mkdir -p "$W/before"
      (cd "$HERE/.dev/base" && LADDER_GIT_COMMIT=fbfd383 wrap build-device/cuda-ladder --quick --results_dir="$W/before") >"$W/before-quick.log" 2>&1
      tail -3 "$W/before-quick.log" ;;
    pergpu) bash scripts/run_per_gpu.sh build-device --ops=reduce,scan,copy_if,histogram,gelu_f32,sort \
        --benchmark_filter="$PERGPU_FILTER" --benchmark_repetitions=3 --benchmark_display_aggregates_only=true >"$W/pergpu.log" 2>&1
      echo "pergpu rc=$?"; tail -30 "$W/pergpu.log"; cp -r results/per-gpu "$W/" ;;
    tests37) build-device/ladder-tests --gtest_filter='*sort_v12*:*sort_v13*:*sort_v14*:*Random*sort*:HostRegistry*' \
        --gtest_brief=1 >"$W/tests37.log" 2>&1; echo "tests37 rc=$?"; tail -5 "$W/tests37.log" ;;
    san37) for tool in memcheck racecheck synccheck initcheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 build-device/ladder-tests --gtest_brief=1 \
          --gtest_filter='*MatchesReference/sort_v12*_n25600000_uniform:*MatchesReference/sort_v13*_n25600000_uniform:*MatchesReference/sort_v14*_n25600000_uniform' >"$W/san37-$tool.log" 2>&1
        echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$W/san37-$tool.log" | tr '\n' ' ')"
      done ;;
    *) OUT=$W STEPS=bench BENCH_GROUPS=$st bash scripts/device_run.sh | tail -3 ;;
  esac
  echo "$st done in $((SECONDS - t0)) s (at $((SECONDS - START)) s)" | tee -a "$W/stages.log"
done
gzip -f "$W"/bench.log 2>/dev/null
tar -czf "$OUT/frozen-$gpu-$(date +%H%M%S).tar.gz" -C "$W" .
ls -la "$OUT"
