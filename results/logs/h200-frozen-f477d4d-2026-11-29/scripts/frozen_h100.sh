#!/usr/bin/env bash
# The H100's frozen run at the H200's frozen commit (f477d4d), so that both GPUs' results/ come
# from one commit (issue 56). Here, before the first device call:
#   rm -rf .dev/clean && mkdir -p .dev/clean && git archive f477d4d -- . ':!results/logs' \
#     ':!results/plots' ':!results/ncu-nvidia-h200' | tar -x -C .dev/clean        (16 MB)
#   cp results/logs/h200-frozen-f477d4d-2026-11-29/scripts/frozen_next.sh .dev/
# Device calls (kind nvidia-h100-x1; the first carries [".dev"], the later ones carry nothing so
# that the build in .dev/clean/build-device stays on the warm machine; chain them within 30 s):
#   PART=A bash .dev/frozen_h100.sh      build + bench
#   PART=B bash .dev/frozen_h100.sh; PART=C bash .dev/frozen_h100.sh
#   PART=D bash .dev/frozen_h100.sh      sweep_large (what fits in 80 GB; the rest is skipped)
# Then here: untar the four part-X.tgz into one folder each, python3 scripts/freeze.py <the four
# frozen/ folders>, python3 scripts/plots.py, python3 scripts/report.py, and the fresh readers.
cd "$(dirname "$0")/clean" || exit 1
bash ../frozen_next.sh f477d4d6af70
