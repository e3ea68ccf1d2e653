# The CUDA toolkit's paths, from the CUDA compiler that project(... CUDA) found: its headers
# (cuda.h), its bin folder (ptxas, cuobjdump and nvcc, run by the suite) and its release. No
# toolkit library is linked, so FindCUDAToolkit's imported targets are not needed, and its
# CMake 3.25.1 copy (Debian 12's cmake-data) stops on a toolkit without nvToolsExt, CUDA 13.0:
#   FindCUDAToolkit.cmake:1088 (set_property): could not find TARGET CUDA::nvToolsExt
# (ci/cmake-stock-module-test.sh configures the project with that module and checks it does not.)
# Sets CUDAToolkit_BIN_DIR, CUDAToolkit_INCLUDE_DIRS, CUDAToolkit_VERSION{,_MAJOR,_MINOR}, the
# names FindCUDAToolkit uses, so nothing else changes.
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "no CUDA compiler: install the CUDA 13.0 toolkit (Debian 12: sudo bash ci/cuda-debian12.sh) "
                      "or point CMAKE_CUDA_COMPILER at its nvcc")
endif()
get_filename_component(CUDAToolkit_BIN_DIR "${CMAKE_CUDA_COMPILER}" DIRECTORY)
get_filename_component(_cuconform_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
find_path(CUCONFORM_CUDA_H cuda.h PATHS "${_cuconform_cuda_root}/include" ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES} NO_DEFAULT_PATH)
if(NOT CUCONFORM_CUDA_H)
  message(FATAL_ERROR "cuda.h is not beside ${CMAKE_CUDA_COMPILER} (looked in ${_cuconform_cuda_root}/include and "
                      "${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES}): an incomplete CUDA toolkit?")
endif()
set(CUDAToolkit_INCLUDE_DIRS "${CUCONFORM_CUDA_H}")
set(CUDAToolkit_VERSION "${CMAKE_CUDA_COMPILER_VERSION}")
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _cuconform_cuda_version "${CUDAToolkit_VERSION}")
set(CUDAToolkit_VERSION_MAJOR "${CMAKE_MATCH_1}")
set(CUDAToolkit_VERSION_MINOR "${CMAKE_MATCH_2}")
message(STATUS "CUDA toolkit ${CUDAToolkit_VERSION}: ${CUDAToolkit_BIN_DIR}, headers ${CUDAToolkit_INCLUDE_DIRS}")
