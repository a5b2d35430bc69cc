#!/usr/bin/env bash
# Prints the SASS (the GPU's own machine code) of one version's kernels:
#   scripts/sass.sh OP VERSION [ARCH]     e.g.  scripts/sass.sh scan v09     (ARCH default sm_90)
# Compiles the operator's registry file to a cubin for ARCH and disassembles the functions of
# namespace ladder::<op>::<version> with cuobjdump -sass. CUOBJDUMP names the disassembler if it
# is not on PATH (the CUDA toolkit has one; so does Triton's wheel, in
# triton/backends/nvidia/bin/).
set -euo pipefail
cd "$(dirname "$0")/.."
op=${1:?usage: scripts/sass.sh OP VERSION [ARCH]}
version=${2:?usage: scripts/sass.sh OP VERSION [ARCH]}
arch=${3:-sm_90}
src=""
case "$op" in
  reduce | scan | sort | copy_if) dir=$op ns=$op ;;
  row_sum) dir=reduce ns=reduce sub=4rows src=reduce/axis.cu ;;
  col_sum) dir=reduce ns=reduce sub=4cols src=reduce/axis.cu ;;
  sort_pairs) dir=sort ns=sort ;;
  gelu_f32 | gelu_f16 | fused_f32 | fused_f16 | add_f32 | elementwise) dir=elementwise ns=elementwise ;;
  histogram | histogram_u8) dir=histogram ns=histogram ;;
  *) echo "sass.sh: unknown operator '$op'" >&2; exit 2 ;;
esac
[[ "$version" =~ ^v[0-9][0-9]$ ]] || { echo "sass.sh: VERSION looks like v09, got '$version'" >&2; exit 2; }
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || true)}
[ -x "$cuobjdump" ] || { echo "sass.sh: no cuobjdump (set CUOBJDUMP=/path/to/cuobjdump)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -cubin -arch="$arch" -O3 -std=c++17 --expt-relaxed-constexpr -I. "${src:-$dir/$dir.cu}" -o "$tmp/k.cubin"
# Mangled names spell each namespace as <length><name>: ladder::scan::v09 -> 6ladder4scan3v09,
# ladder::reduce::rows::v04 -> 6ladder6reduce4rows3v04.
pattern="6ladder${#ns}${ns}${sub:-}3${version}"
"$cuobjdump" -sass "$tmp/k.cubin" | awk -v pat="$pattern" '
  /Function : / { show = index($0, pat) > 0 }
  show { print }'
