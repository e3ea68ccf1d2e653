# Sourced by the findings' run.sh scripts (nothing here comes from the suite). Sourcing it puts
# /usr/local/cuda/bin on PATH, sets NVCC (exit 2 without one) and CUDA_HOME, and makes a
# temporary folder $tmp that is removed on exit. Functions:
#   ptx_max REL              the highest PTX ISA version ptxas release REL accepts ("" if unknown)
#   lower_version PTX PTXAS  lowers PTX's .version to what that ptxas accepts, saying so
export PATH=$PATH:/usr/local/cuda/bin
NVCC=$(command -v nvcc) || { echo "no nvcc" >&2; exit 2; }
CUDA_HOME=$(dirname "$(dirname "$NVCC")")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

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
