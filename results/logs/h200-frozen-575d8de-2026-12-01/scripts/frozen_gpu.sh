#!/usr/bin/env bash
# The next frozen run, for each GPU from ONE commit (issue 56): f477d4d's H200 run predates the
# elementwise CUB baseline's size classes (9b747f9, classed by items since 5b89218), so both GPUs run again at a commit that has
# them (the head of main when the run is made; set C below). Here, before the first device call:
#   C=<12 hex of that commit>
#   rm -rf .dev/clean && mkdir -p .dev/clean && git archive $C -- . ':!results/logs' \
#     ':!results/plots' ':!results/ncu-nvidia-h200' | tar -x -C .dev/clean
#   cp results/logs/h200-frozen-f477d4d-2026-11-29/scripts/frozen_next.sh .dev/
#   cp results/logs/h200-cub-cache-9b747f9-2026-11-29/frozen_gpu.sh .dev/ && sed -i "s/^COMMIT=.*/COMMIT=$C/" .dev/frozen_gpu.sh
# Device calls, per GPU kind (about 13-15 device minutes each on the H200; the first carries
# [".dev"], the later ones nothing, so that .dev/clean/build-device stays on the warm machine;
# chain them within the 30 s idle release):
#   PART=A bash .dev/frozen_gpu.sh      build + bench
#   PART=B bash .dev/frozen_gpu.sh; PART=C bash .dev/frozen_gpu.sh
#   PART=D bash .dev/frozen_gpu.sh      sweep_large (what fits; the rest is skipped with one line)
# Then here: untar each GPU's four part-X.tgz into one folder each, python3 scripts/freeze.py <the
# four frozen/ folders> (once per GPU), python3 scripts/plots.py, python3 scripts/report.py, and
# the fresh readers.
COMMIT=575d8de93169
cd "$(dirname "$0")/clean" || exit 1
bash ../frozen_next.sh "$COMMIT"
