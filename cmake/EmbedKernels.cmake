# cuconform_embed_kernels(<target> <file.cu>...): compile each .cu to a fatbin with nvcc and
# link it into <target> (an OBJECT library) under the module name <file stem>; host code gets
# it with cuconform::embedded_module("<stem>") and loads it through the Driver API.
# The PTX nvcc made for every arch (compute_80, compute_90a, ...) is embedded beside the fatbin,
# so a run can hand it to the driver's JIT or to another ptxas (`cuconform run --codegen`).
enable_language(ASM)
set(CUCONFORM_NVCC_FLAGS -std=c++17 -O3 -lineinfo CACHE STRING "extra nvcc flags for fixture kernels")

function(cuconform_embed_kernels target)
  foreach(cu IN LISTS ARGN)
    get_filename_component(src "${cu}" ABSOLUTE)
    get_filename_component(stem "${cu}" NAME_WE)
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/kernels")
    set(fatbin "${dir}/${stem}.fatbin")
    set(dep "${dir}/${stem}.d")
    set(keep "${dir}/${stem}.keep")
    set(ptx_files "")
    foreach(a IN LISTS CUCONFORM_ARCHS)
      list(APPEND ptx_files "${keep}/${stem}.compute_${a}.ptx")
    endforeach()
    # With one arch nvcc --keep names the PTX <stem>.ptx, not <stem>.compute_<arch>.ptx.
    set(single_arch_rename "")
    list(LENGTH CUCONFORM_ARCHS n_archs)
    if(n_archs EQUAL 1)
      set(single_arch_rename COMMAND ${CMAKE_COMMAND} -E rename "${keep}/${stem}.ptx" "${ptx_files}")
    endif()
    add_custom_command(
      OUTPUT "${fatbin}" ${ptx_files}
      COMMAND ${CMAKE_COMMAND} -E make_directory "${keep}"
      COMMAND ${CMAKE_CUDA_COMPILER} -fatbin ${CUCONFORM_GENCODE} ${CUCONFORM_NVCC_FLAGS}
              -I${CMAKE_SOURCE_DIR} -MD -MF "${dep}" --keep --keep-dir "${keep}" -o "${fatbin}" "${src}"
      # Only the PTX is wanted from the intermediates; the preprocessed sources are large.
      COMMAND ${CMAKE_COMMAND} -E rm -f "${keep}/${stem}.compute_*.cpp1.ii" "${keep}/${stem}.cpp1.ii"
      ${single_arch_rename}
      DEPENDS "${src}"
      DEPFILE "${dep}"
      COMMENT "nvcc ${stem}.cu -> fatbin + PTX (${CUCONFORM_ARCHS})"
      VERBATIM)
    set(asm "${dir}/${stem}_embed.S")
    set(reg "${dir}/${stem}_embed.cpp")
    set(asm_text "    .section .rodata\n    .balign 64\n"
      "    .global cuconform_fatbin_${stem}\ncuconform_fatbin_${stem}:\n"
      "    .incbin \"${fatbin}\"\n"
      "    .global cuconform_fatbin_${stem}_end\ncuconform_fatbin_${stem}_end:\n    .byte 0\n")
    set(ptx_decls "")
    set(ptx_list "")
    foreach(a IN LISTS CUCONFORM_ARCHS)
      set(sym "cuconform_ptx_${stem}_${a}")
      string(APPEND asm_text "    .global ${sym}\n${sym}:\n    .incbin \"${keep}/${stem}.compute_${a}.ptx\"\n"
                             "    .global ${sym}_end\n${sym}_end:\n    .byte 0\n")
      string(APPEND ptx_decls "extern \"C\" const char ${sym}[];\nextern \"C\" const char ${sym}_end[];\n")
      string(APPEND ptx_list "    {\"compute_${a}\", std::string_view(${sym}, static_cast<std::size_t>(${sym}_end - ${sym}))},\n")
    endforeach()
    string(APPEND asm_text "    .section .note.GNU-stack,\"\",@progbits\n")
    file(WRITE "${asm}" ${asm_text})
    file(WRITE "${reg}"
      "#include \"harness/driver/embedded_modules.hpp\"\n"
      "extern \"C\" const unsigned char cuconform_fatbin_${stem}[];\n"
      "extern \"C\" const unsigned char cuconform_fatbin_${stem}_end[];\n"
      "${ptx_decls}"
      "static const cuconform::EmbeddedModuleRegistrar reg_${stem}(\"${stem}\", \"${cu}\",\n"
      "    cuconform_fatbin_${stem}, cuconform_fatbin_${stem}_end, {\n"
      "${ptx_list}"
      "    });\n")
    set_source_files_properties("${asm}" PROPERTIES OBJECT_DEPENDS "${fatbin};${ptx_files}")
    target_sources(${target} PRIVATE "${asm}" "${reg}")
  endforeach()
endfunction()
