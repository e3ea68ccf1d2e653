#!/usr/bin/env bash
# Runs a test command on the GPU CTest gave it. With `ctest --resource-spec-file` and a test
# property RESOURCE_GROUPS "gpus:1", CTest exports CTEST_RESOURCE_GROUP_0_GPUS="id:N,slots:1";
# cuconform (and its worker processes) use device CUCONFORM_DEVICE. An explicit
# CUCONFORM_DEVICE wins; without resource allocation the command runs unchanged (device 0).
#   usage: ci/resources/ctest-gpu-launcher.sh COMMAND [ARGS...]
#   e.g. as the cuconform-tests target's CROSSCOMPILING_EMULATOR, which catch_discover_tests
#   puts in front of every test it registers (reporters/README.md, "Several GPUs on one host").
if [ -z "${CUCONFORM_DEVICE:-}" ] && [ -n "${CTEST_RESOURCE_GROUP_0_GPUS:-}" ]; then
  id=${CTEST_RESOURCE_GROUP_0_GPUS#id:}
  export CUCONFORM_DEVICE=${id%%,*}
fi
exec "$@"
