# Sourced by the run.sh of findings about what ptxas accepts (no GPU, nothing from the suite).
# After `source ptxas_check.sh MODE` (MODE: sass|jit = the toolkit's ptxas, ptxas=PATH = that one):
#   check NAME TARGET VERSION 'INSTRUCTION' accepted|rejected
#       assembles one kernel holding INSTRUCTION (registers %r0..%r7, %r_s = a shared address,
#       %rd_g = a global address, smem = a 64-byte shared array) and prints expected vs observed;
#       a violation_* variant that goes the wrong way reproduces the finding.
#   finish   prints REPRODUCED or NOT REPRODUCED; a run.sh that stops before it (set -e, a
#            missing ptxas) still ends with an outcome line, from the EXIT trap.
finished=
ptx_tmp=$(mktemp -d)
trap 'rc=$?; rm -rf "$ptx_tmp"; [ -n "$finished" ] || echo "NOT REPRODUCED (run.sh stopped before its outcome: exit $rc)"' EXIT
case "${1:-sass}" in
  sass | jit) PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas) ;;
  ptxas=*) PTXAS=${1#ptxas=} ;;
  *) echo "usage: run.sh [sass|jit|ptxas=PATH]" >&2; exit 2 ;;
esac
[ -x "$PTXAS" ] || { echo "no ptxas at $PTXAS" >&2; exit 2; }
echo "toolchain: ${1:-sass}; ptxas: $PTXAS"
"$PTXAS" --version | tail -n 1
reproduced=0

check() {
  local name=$1 target=$2 ver=$3 insn=$4 want=$5 f="$ptx_tmp/$1.ptx" got msg
  cat > "$f" <<PTX
.version $ver
.target $target
.address_size 64
.visible .entry k(.param .u64 p) {
  .reg .b32 %r<8>;
  .reg .b32 %r_s;
  .reg .b64 %rd_g;
  .shared .align 16 .b8 smem[64];
  ld.param.u64 %rd_g, [p];
  mov.u32 %r_s, smem;
  $insn
  ret;
}
PTX
  if msg=$("$PTXAS" -arch="$target" "$f" -o /dev/null 2>&1); then got=accepted; else got=rejected; fi
  msg=$(printf '%s' "$msg" | tr '\n' ' ' | sed "s|$ptx_tmp/||g")
  echo "VARIANT $name: $insn (.version $ver, -arch=$target): expected $want, observed $got${msg:+ ($msg)}"
  if [ "$want" != "$got" ]; then
    case "$name" in
      violation*) reproduced=1 ;;
      *) echo "  (a control did not behave as expected: this ptxas does not check what the controls assume)" ;;
    esac
  fi
}

finish() {
  finished=1
  if [ $reproduced = 1 ]; then echo REPRODUCED; else echo "NOT REPRODUCED (every violation went the documented way)"; fi
}
