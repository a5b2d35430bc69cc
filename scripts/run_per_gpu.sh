#!/usr/bin/env bash
# Runs the benchmark once per visible GPU, one process each (cuda-ladder --device=N), writing
#   results/per-gpu/device<N>/<gpu>.json
# then draws the across-GPU chart (results/per-gpu/plots/gpus-pct-copy.png, with each device's
# own ladder charts beside it) and prints a comparison of device 0 with each other device:
#   scripts/run_per_gpu.sh [BUILD_DIR] [extra cuda-ladder flags...]
# e.g. scripts/run_per_gpu.sh build --ops=reduce,scan --benchmark_repetitions=5
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
shift || true
count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$count" -gt 0 ] || { echo "run_per_gpu.sh: no GPU visible (nvidia-smi -L)" >&2; exit 1; }
status=0
files=()
# Only the files this run writes: a device's folder may still hold an earlier run's JSON of
# another GPU model (named by its slug), which must not join this run's comparison.
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
for ((i = 0; i < count; ++i)); do
  dir=results/per-gpu/device$i
  mkdir -p "$dir"
  echo "=== device $i: $(nvidia-smi -L | sed -n "$((i + 1))p")"
  "$BUILD/cuda-ladder" --device="$i" --results_dir="$dir" "$@" || status=1
  while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -maxdepth 1 -name '*.json' -newer "$stamp" | sort)
done
[ ${#files[@]} -gt 0 ] || { echo "run_per_gpu.sh: no results were written" >&2; exit 1; }
if [ ${#files[@]} -gt 1 ]; then
  python3 scripts/plots.py --out results/per-gpu/plots "${files[@]}" || true
  for f in "${files[@]:1}"; do python3 scripts/compare.py "${files[0]}" "$f" || status=1; done
fi
exit $status
