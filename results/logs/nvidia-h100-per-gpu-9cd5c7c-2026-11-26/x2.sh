# On a two-GPU machine: with H200s the H200's ladder run and the two-GPU run; with H100s the two-GPU run only.
export PERGPU_FILTER='^(reduce/(v01|v12|cub)|scan/(v01|v15|v16|cub)|copy_if/(v01|v06|v08|cub).*keep50|histogram/(v01|v05|cub).*uniform|gelu_f32/(v01|v05|cub)|sort/(v14|cub/).*uniform)'
if nvidia-smi -L | grep -q H200; then
  bash .dev/frozen.sh ${STAGES:-sort copy_if reduce scan histogram elementwise axis transfer pergpu}
else
  bash .dev/frozen.sh ${STAGES_H100:-pergpu}
fi
