#!/bin/bash
# Session 26: the frozen run's tree made on the device (the working tree and a carried .dev/clean
# together passed the device tool's 64 MiB). Run from the repository root of a checkout whose
# working tree is the commit C (git status clean), before PART=A:
#   bash results/logs/h200-session26-2026-11-30/frozen_setup.sh C && PART=A bash .dev/frozen_gpu.sh
# It copies the tree, less results/logs, results/plots and results/ncu-nvidia-h200 (as git archive
# with those exclusions did), into .dev/clean, and the frozen run's scripts of f1e83ab into .dev
# with COMMIT=C; the later parts run from the warm machine's .dev (cd .dev && PART=B bash ...).
set -eu
C=$1
S=results/logs/h200-frozen-f1e83ab-2026-11-30/scripts
rm -rf .dev/clean && mkdir -p .dev/clean
tar -c --exclude=./results/logs --exclude=./results/plots --exclude=./results/ncu-nvidia-h200 \
  --exclude=./.dev --exclude=./build --exclude=./build80 . | tar -x -C .dev/clean
cp $S/frozen_next.sh $S/frozen_gpu.sh .dev/
sed -i "s/^COMMIT=.*/COMMIT=$C/" .dev/frozen_gpu.sh
grep "^COMMIT" .dev/frozen_gpu.sh
