#!/usr/bin/env bash
# Prints the other ptxas programs on this machine, one path a line (not the build's toolkit):
# $CUCONFORM_PTXAS, the one inside Triton's Python package, the one inside PyTorch's. Each is
# a toolchain `cuconform run --codegen ptxas=PATH` can judge.
set -uo pipefail
toolkit=$(command -v ptxas 2>/dev/null || true)
{
  [ -n "${CUCONFORM_PTXAS:-}" ] && echo "$CUCONFORM_PTXAS"
  py=$(command -v python3 2>/dev/null) && {
    d=$("$py" -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null) && echo "$d/backends/nvidia/bin/ptxas"
    d=$("$py" -c "import torch, os; print(os.path.dirname(torch.__file__))" 2>/dev/null) && echo "$d/bin/ptxas"
  }
} | while read -r p; do
  [ -x "$p" ] || continue
  [ -n "$toolkit" ] && [ "$(readlink -f "$p")" = "$(readlink -f "$toolkit")" ] && continue
  echo "$p"
done | awk '!seen[$0]++'
