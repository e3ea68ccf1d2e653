#!/usr/bin/env bash
# Configures the project with Debian 12's own FindCUDAToolkit.cmake (cmake-data 3.25.1, as Debian
# ships it): with CUDA 13.0, which has no nvToolsExt, that module stops
#   FindCUDAToolkit.cmake:1088 (set_property): set_property could not find TARGET CUDA::nvToolsExt
# so the project must not depend on it (cmake/CudaToolkitPaths.cmake).
#   ci/cmake-stock-module-test.sh NVCC [WORK_DIR]
# Exit 0: the project configures with Debian's module; 1: it does not; 77 (skipped, with the
# reason): this machine cannot show it (no Debian cmake-data 3.25, or a toolkit with nvToolsExt,
# with which the module works). Nothing is downloaded: the module is this machine's copy of
# cmake-data's, with the one line a later fix changes put back as Debian ships it, and checked
# against dpkg's md5sum of the shipped file. A control shows the module fails on this toolkit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${1:?usage: ci/cmake-stock-module-test.sh NVCC [WORK_DIR]}
work=${2:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
skip() { echo "cmake-stock-module-test: skipped: $*"; exit 77; }
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

mkdir -p "$work"
echo 'message("${CMAKE_ROOT}")' > "$work/root.cmake"
cmake_root=$(cmake -P "$work/root.cmake" 2>&1)
module="$cmake_root/Modules/FindCUDAToolkit.cmake"
want=$(awk -v f="${module#/}" '$2 == f {print $1}' /var/lib/dpkg/info/cmake-data.md5sums 2>/dev/null || true)
[ -n "$want" ] || skip "$module is not Debian's cmake-data (no dpkg md5sum for it)"
mkdir -p "$work/modules"
sed 's/^    if(TARGET CUDA::nvToolsExt AND CMAKE_MINIMUM_REQUIRED_VERSION VERSION_GREATER_EQUAL 3.25)$/    if(CMAKE_MINIMUM_REQUIRED_VERSION VERSION_GREATER_EQUAL 3.25)/' \
  "$module" > "$work/modules/FindCUDAToolkit.cmake"
got=$(md5sum < "$work/modules/FindCUDAToolkit.cmake" | cut -d' ' -f1)
[ "$got" = "$want" ] || skip "$module is not cmake-data's 3.25.1 module with or without the one-line fix (md5 $got, Debian's $want)"
# The module includes these beside itself.
cp "$cmake_root/Modules/FindPackageHandleStandardArgs.cmake" "$cmake_root/Modules/FindPackageMessage.cmake" "$work/modules/"
echo "cmake-stock-module-test: Debian's module (md5 $want, as dpkg lists it) in $work/modules"

# The control: a project that asks the module for the toolkit fails the way Debian 12 users saw.
mkdir -p "$work/control"
cat > "$work/control/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(control LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
CMAKE
if cmake -S "$work/control" -B "$work/control/build" "${generator[@]}" -DCMAKE_MODULE_PATH="$work/modules" \
     -DCMAKE_CUDA_COMPILER="$nvcc" > "$work/control.log" 2>&1; then
  skip "the module works with this toolkit ($nvcc has nvToolsExt?): nothing to show"
fi
grep -q "CUDA::nvToolsExt" "$work/control.log" || { cat "$work/control.log"; echo "cmake-stock-module-test: the control failed otherwise than expected" >&2; exit 1; }
echo "cmake-stock-module-test: control: find_package(CUDAToolkit) fails with Debian's module: $(grep -m1 -o 'could not find TARGET CUDA::nvToolsExt' "$work/control.log" || echo 'CUDA::nvToolsExt')"

# The project, with the same module first on the module path.
if ! cmake -S "$root" -B "$work/project" "${generator[@]}" -DCMAKE_MODULE_PATH="$work/modules" -DCMAKE_CUDA_COMPILER="$nvcc" \
     -DCMAKE_BUILD_TYPE=Release > "$work/project.log" 2>&1; then
  tail -n 30 "$work/project.log"
  echo "cmake-stock-module-test: the project does not configure with Debian's FindCUDAToolkit.cmake" >&2
  exit 1
fi
echo "cmake-stock-module-test: the project configures with Debian's FindCUDAToolkit.cmake"
