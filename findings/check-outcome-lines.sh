#!/usr/bin/env bash
# Checks that every reproducer ends with an outcome line (REPRODUCED or NOT REPRODUCED and why) on
# every path, without a GPU: the ptxas-only ones with the toolkit's ptxas; the GPU ones with a
# stand-in nvcc whose "host programs" print what a GPU would (a fault in the last variant too), and
# with one that cannot build. Usage: findings/check-outcome-lines.sh (exit 0 when every run ended
# with an outcome line, 1 otherwise, naming the run).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
bad=0
last_outcome() { grep -E '^(RESULT )?(REPRODUCED|NOT REPRODUCED)' "$1" | tail -n 1; }
expect() {  # NAME LOG WANT(regex on the outcome line)
  local line
  line=$(last_outcome "$2")
  if [[ -z "$line" || ! "$line" =~ $3 ]]; then
    echo "FAIL $1: outcome line '${line:-none}' does not match /$3/"; sed 's/^/    /' "$2" | tail -n 8; bad=1
  else echo "ok   $1: $line"; fi
}

# A stand-in nvcc: -ptx/-cubin write an empty file; a host build writes a script that answers as
# the host programs do, from $FAKE_RESULTS ("TYPE.OP=RESULT ..." lines; default "ok"), faulting
# with exit 1 like a poisoned context. FAKE_NVCC_FAILS=1: nothing builds.
mkdir -p "$work/bin"
cat > "$work/bin/nvcc" <<'NVCC'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "Cuda compilation tools, release 13.0 (stand-in)"; exit 0; }
[ -n "${FAKE_NVCC_FAILS:-}" ] && { echo "nvcc: stand-in refuses to build" >&2; exit 1; }
out=""; host=0
while [ $# -gt 0 ]; do
  case "$1" in -o) out=$2; shift ;; *.cpp) host=1 ;; esac
  shift
done
if [ $host = 1 ]; then
  cat > "$out" <<'HOST'
#!/usr/bin/env bash
[ "${2:-}" = list ] && { echo "edge_x_2d inside_2d"; exit 0; }
key="${2:-}.${3:-}"
r=$(grep -m1 "^$key=" <<< "${FAKE_RESULTS:-}" | cut -d= -f2-)
echo "RESULT ${r:-ok}"
case "${r:-ok}" in fault*) exit 1 ;; esac
HOST
  chmod +x "$out"
else : > "$out"; fi
NVCC
chmod +x "$work/bin/nvcc"

b64="$here/tma_tensor.reduce.b64_bitwise_on_int64_map/run.sh"
faults=$'int64.and=fault CUDA_ERROR_ILLEGAL_INSTRUCTION\nint64.or=fault CUDA_ERROR_ILLEGAL_INSTRUCTION\nint64.xor=fault CUDA_ERROR_ILLEGAL_INSTRUCTION'
# The H100's outcome of 2026-11-25: the three int64 bitwise variants fault, the rest reduce.
PATH="$work/bin:$PATH" FAKE_RESULTS="$faults" bash "$b64" sass > "$work/b64.log" 2>&1
expect "b64 (H100 results)" "$work/b64.log" '^RESULT REPRODUCED \(int64\.and faults'
# A fault in the last variant (int64.max) as well.
PATH="$work/bin:$PATH" FAKE_RESULTS="$faults"$'\nint64.max=fault CUDA_ERROR_ILLEGAL_INSTRUCTION' bash "$b64" sass > "$work/b64-last.log" 2>&1
expect "b64 (fault in the last variant)" "$work/b64-last.log" '^RESULT REPRODUCED'
# Nothing faults: not reproduced, and why.
PATH="$work/bin:$PATH" FAKE_RESULTS="" bash "$b64" sass > "$work/b64-none.log" 2>&1
expect "b64 (no fault)" "$work/b64-none.log" '^RESULT NOT REPRODUCED \(int64\.and: ok'

# Every reproducer: with a stand-in nvcc that cannot build (GPU ones: exit 2 and an outcome line),
# and the ptxas-only ones with the real ptxas.
for dir in "$here"/*/; do
  id=$(basename "$dir")
  [ -x "$dir/run.sh" ] || continue
  if grep -q 'ptxas_check.sh' "$dir/run.sh"; then
    bash "$dir/run.sh" sass > "$work/$id.log" 2>&1
    expect "$id (ptxas)" "$work/$id.log" '^(REPRODUCED|NOT REPRODUCED)'
  else
    PATH="$work/bin:$PATH" FAKE_NVCC_FAILS=1 bash "$dir/run.sh" sass > "$work/$id.log" 2>&1
    expect "$id (no build)" "$work/$id.log" '^RESULT NOT REPRODUCED \(run\.sh stopped before its outcome: exit 2'
  fi
done
exit $bad
