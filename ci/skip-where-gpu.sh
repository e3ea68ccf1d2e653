# Sourced by the tests that drive stand-in nodes without a GPU (the CI runner): on a host with a
# GPU their runs would take the real GPUs, and the lines they expect ("no GPU could be opened")
# cannot hold, so there they skip (exit 77, which CTest reads as skipped), saying why.
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "SKIPPED: a GPU is present; this test drives stand-in nodes without one"
  exit 77
fi
