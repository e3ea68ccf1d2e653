# cuconform_embed_kernels(<target> <file.cu>...): compile each .cu to a fatbin with nvcc and
# link it into <target> (an OBJECT library) under the module name <file stem>; host code gets
# it with cuconform::embedded_module("<stem>") and loads it through the Driver API.
enable_language(ASM)
set(CUCONFORM_NVCC_FLAGS -std=c++17 -O3 -lineinfo CACHE STRING "extra nvcc flags for fixture kernels")

function(cuconform_embed_kernels target)
  foreach(cu IN LISTS ARGN)
    get_filename_component(src "${cu}" ABSOLUTE)
    get_filename_component(stem "${cu}" NAME_WE)
    set(fatbin "${CMAKE_CURRENT_BINARY_DIR}/kernels/${stem}.fatbin")
    set(dep "${CMAKE_CURRENT_BINARY_DIR}/kernels/${stem}.d")
    add_custom_command(
      OUTPUT "${fatbin}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/kernels"
      COMMAND ${CMAKE_CUDA_COMPILER} -fatbin ${CUCONFORM_GENCODE} ${CUCONFORM_NVCC_FLAGS}
              -I${CMAKE_SOURCE_DIR} -MD -MF "${dep}" -o "${fatbin}" "${src}"
      DEPENDS "${src}"
      DEPFILE "${dep}"
      COMMENT "nvcc ${stem}.cu -> fatbin (${CUCONFORM_ARCHS})"
      VERBATIM)
    set(asm "${CMAKE_CURRENT_BINARY_DIR}/kernels/${stem}_embed.S")
    set(reg "${CMAKE_CURRENT_BINARY_DIR}/kernels/${stem}_embed.cpp")
    file(WRITE "${asm}"
      "    .section .rodata\n    .balign 64\n"
      "    .global cuconform_fatbin_${stem}\ncuconform_fatbin_${stem}:\n"
      "    .incbin \"${fatbin}\"\n"
      "    .global cuconform_fatbin_${stem}_end\ncuconform_fatbin_${stem}_end:\n    .byte 0\n"
      "    .section .note.GNU-stack,\"\",@progbits\n")
    file(WRITE "${reg}"
      "#include \"harness/driver/embedded_modules.hpp\"\n"
      "extern \"C\" const unsigned char cuconform_fatbin_${stem}[];\n"
      "extern \"C\" const unsigned char cuconform_fatbin_${stem}_end[];\n"
      "static const cuconform::EmbeddedModuleRegistrar reg_${stem}(\"${stem}\", \"${cu}\",\n"
      "    cuconform_fatbin_${stem}, cuconform_fatbin_${stem}_end);\n")
    set_source_files_properties("${asm}" PROPERTIES OBJECT_DEPENDS "${fatbin}")
    target_sources(${target} PRIVATE "${asm}" "${reg}")
  endforeach()
endfunction()
