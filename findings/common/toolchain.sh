# Sourced by the findings' run.sh scripts (nothing here comes from the suite). Sourcing it puts
# /usr/local/cuda/bin on PATH, sets NVCC (exit 2 without one) and CUDA_HOME, and makes a
# temporary folder $tmp that is removed on exit. Functions:
#   ptx_max REL              the highest PTX ISA version ptxas release REL accepts ("" if unknown)
#   lower_version PTX PTXAS  lowers PTX's .version to what that ptxas accepts, saying so
#   build_sm90a MODE HOST_CPP KERNEL_CU
#                            builds the host program ($tmp/host) and the kernel image for MODE
#                            (sass: nvcc -cubin sm_90a; jit: PTX for the driver; ptxas=PATH: that
#                            ptxas on the same PTX) and sets $image; exits 2 when something does
#                            not build, prints the toolchain and the device
#   outcome TEXT             prints the outcome line "RESULT TEXT" (TEXT starts with REPRODUCED or
#                            NOT REPRODUCED and says why); a run.sh that stops before it (a build
#                            error, a command that fails under set -e, a fault in the last
#                            variant) still ends with one, from the EXIT trap, naming its exit code
outcome_said=
outcome() { echo "RESULT $*"; outcome_said=1; }
on_exit() {
  local rc=$1
  rm -rf "$tmp"
  [ -n "$outcome_said" ] || echo "RESULT NOT REPRODUCED (run.sh stopped before its outcome: exit $rc$([ "$rc" = 2 ] && echo ', something did not build'))"
}
tmp=$(mktemp -d); trap 'on_exit $?' EXIT
export PATH=$PATH:/usr/local/cuda/bin
NVCC=$(command -v nvcc) || { echo "no nvcc" >&2; exit 2; }
CUDA_HOME=$(dirname "$(dirname "$NVCC")")

ptx_max() {
  case "$1" in
    12.0) echo 8.0 ;; 12.1) echo 8.1 ;; 12.2) echo 8.2 ;; 12.3) echo 8.3 ;; 12.4) echo 8.4 ;;
    12.5 | 12.6) echo 8.5 ;; 12.8) echo 8.7 ;; 12.9) echo 8.8 ;; *) echo "" ;;
  esac
}

lower_version() {
  local rel max
  rel=$("$2" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
  max=$(ptx_max "$rel")
  if [ -n "$max" ]; then sed -i "s/^\.version .*/.version $max/" "$1"; echo "(.version lowered to $max for ptxas $rel)"; fi
}

build_sm90a() {
  local mode=$1 host=$2 kernel=$3
  echo "toolchain: $mode"
  echo "nvcc: $("$NVCC" --version | tail -n 1)"
  "$NVCC" -o "$tmp/host" "$host" -L"$CUDA_HOME/lib64/stubs" -lcuda || exit 2
  "$NVCC" -ptx -arch=compute_90a -o "$tmp/k.ptx" "$kernel" || exit 2
  case "$mode" in
    sass) "$NVCC" -cubin -arch=sm_90a -o "$tmp/k.cubin" "$kernel" || exit 2; image=$tmp/k.cubin ;;
    jit) image=$tmp/k.ptx ;;
    ptxas=*)
      local ptxas=${mode#ptxas=}
      echo "ptxas: $("$ptxas" --version | tail -n 1)"
      lower_version "$tmp/k.ptx" "$ptxas"
      "$ptxas" -arch=sm_90a -o "$tmp/k.cubin" "$tmp/k.ptx" || exit 2
      image=$tmp/k.cubin ;;
    *) echo "usage: run.sh [sass|jit|ptxas=PATH]" >&2; exit 2 ;;
  esac
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
}
