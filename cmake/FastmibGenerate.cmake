# fastmib_generate(TARGET MODEL OUTDIR)
#
# Runs fastmib-gen on MODEL whenever it (or the generator) changes and
# defines TARGET, a static library holding the generated schema, with
# OUTDIR on its include path for <prefix>_stats.h. Link TARGET into the
# application together with fastmib::fastmib.
function(fastmib_generate target model outdir)
  get_filename_component(model "${model}" ABSOLUTE)
  file(READ "${model}" _text)
  string(REGEX MATCH "prefix:[ \t]*([a-z][a-zA-Z0-9]*)" _m "${_text}")
  set(_prefix "${CMAKE_MATCH_1}")
  string(REGEX MATCH "name:[ \t]*([A-Z][A-Za-z0-9-]*)" _m "${_text}")
  set(_module "${CMAKE_MATCH_1}")
  if(NOT _prefix OR NOT _module)
    message(FATAL_ERROR "fastmib_generate: cannot find module name/prefix in ${model}")
  endif()
  set(_outputs ${outdir}/${_prefix}_stats.h ${outdir}/${_prefix}_schema.c
               ${outdir}/${_module}.txt)
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND fastmib-gen "${model}" -o "${outdir}"
    DEPENDS "${model}" fastmib-gen
    COMMENT "fastmib-gen ${model}"
    VERBATIM)
  add_library(${target} STATIC ${outdir}/${_prefix}_schema.c ${outdir}/${_prefix}_stats.h)
  target_include_directories(${target} PUBLIC ${outdir})
  target_link_libraries(${target} PUBLIC fastmib_headers)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
