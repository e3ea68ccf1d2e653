# Which machine code is embedded. Default: sm_80 and sm_90a, plus the local GPU when
# nvidia-smi reports one. The PTX of every arch is embedded too: the driver can JIT the
# lowest one on an unlisted newer GPU (the report then says so), and `--codegen jit` or
# `--codegen ptxas=PATH` compile the PTX of the device's own arch (Hopper kernels need
# compute_90a) with the driver's JIT or another ptxas.
set(CUCONFORM_ARCHS "" CACHE STRING "semicolon list, e.g. 80;90a (empty: 80;90a + local GPU)")
if(NOT CUCONFORM_ARCHS)
  set(_archs 80 90a)
  find_program(_nvsmi nvidia-smi)
  if(_nvsmi)
    execute_process(COMMAND ${_nvsmi} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _cc RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rc EQUAL 0 AND _cc MATCHES "^([0-9]+)\\.([0-9]+)")
      set(_local "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      if(_local STREQUAL "90")
        set(_local 90a)
      endif()
      list(APPEND _archs ${_local})
    endif()
  endif()
  list(REMOVE_DUPLICATES _archs)
  set(CUCONFORM_ARCHS ${_archs})
endif()
list(GET CUCONFORM_ARCHS 0 _lowest)
string(REGEX REPLACE "[a-z]$" "" CUCONFORM_PTX_ARCH "${_lowest}")
set(CUCONFORM_GENCODE "")
foreach(a IN LISTS CUCONFORM_ARCHS)
  list(APPEND CUCONFORM_GENCODE "-gencode=arch=compute_${a},code=[sm_${a},compute_${a}]")
endforeach()
string(REPLACE ";" "," CUCONFORM_ARCHS_CSV "${CUCONFORM_ARCHS}")
message(STATUS "cuconform: embedding SASS and PTX for ${CUCONFORM_ARCHS}")
