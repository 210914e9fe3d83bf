# fastmib_generate(TARGET MODEL OUTDIR
#                  [INSTALL_MIB [MIB_DESTINATION DIR] [MIB_COMPONENT COMPONENT]])
#
# Runs fastmib-gen on MODEL whenever the model or the generator changes and
# defines TARGET, a static library holding the generated schema, with
# OUTDIR on its include path for <prefix>_stats.h. Link TARGET into the
# application: it brings the fastmib headers along (and, from an installed
# package, the writer library fastmib::fastmib).
#
# INSTALL_MIB: `cmake --install` also installs the generated MIB,
# <MODULE-NAME>.txt, into MIB_DESTINATION (default
# ${CMAKE_INSTALL_DATADIR}/snmp/mibs, where Net-SNMP looks), in
# MIB_COMPONENT if given (the component of a package). The same by hand:
#   install(FILES $<TARGET_PROPERTY:TARGET,FASTMIB_MIB> DESTINATION ...)
#
# TARGET gets the properties FASTMIB_PREFIX, FASTMIB_MODULE (the SMI module
# name) and FASTMIB_MIB (path of the generated MIB file), for tests and
# install rules.
#
# The output file names depend on `module.name` and `module.prefix`, which
# are read from the model at configure time; the model is a configure
# dependency, so renaming either re-runs CMake.
function(fastmib_generate target model outdir)
  cmake_parse_arguments(PARSE_ARGV 3 _fg "INSTALL_MIB" "MIB_DESTINATION;MIB_COMPONENT" "")
  if(_fg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fastmib_generate: unknown arguments: ${_fg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _fg_INSTALL_MIB AND (_fg_MIB_DESTINATION OR _fg_MIB_COMPONENT))
    message(FATAL_ERROR "fastmib_generate: MIB_DESTINATION and MIB_COMPONENT need INSTALL_MIB")
  endif()
  get_filename_component(model "${model}" ABSOLUTE)
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "fastmib_generate: model ${model} does not exist")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${model}")

  # Only the `module:` mapping: from its line to the next top-level key.
  file(READ "${model}" _text)
  string(REGEX MATCH "(^|\n)module:[^\n]*\n(([ \t#][^\n]*)?\n)*" _module_block "${_text}")
  string(REGEX MATCH "\n[ \t]+prefix:[ \t]*[\"']?([a-z][a-z0-9]*)" _m "${_module_block}")
  set(_prefix "${CMAKE_MATCH_1}")
  string(REGEX MATCH "\n[ \t]+name:[ \t]*[\"']?([A-Z][A-Za-z0-9-]*)" _m "${_module_block}")
  set(_module "${CMAKE_MATCH_1}")
  if(NOT _prefix OR NOT _module)
    message(FATAL_ERROR "fastmib_generate: cannot find module name/prefix in ${model} "
                        "(write them as block-style `name:` and `prefix:` lines under `module:`)")
  endif()

  # The generator of this source tree, or the installed one that the
  # package configuration imported (fastmib::fastmib-gen); the generated
  # code needs the fastmib headers, and, installed, the writer library.
  if(TARGET fastmib-gen)
    set(_gen $<TARGET_FILE:fastmib-gen>)
    set(_gen_dep fastmib-gen)
    set(_link fastmib_headers)
  elseif(TARGET fastmib::fastmib-gen)
    set(_gen $<TARGET_FILE:fastmib::fastmib-gen>)
    set(_gen_dep fastmib::fastmib-gen)
    set(_link fastmib::fastmib)
  else()
    message(FATAL_ERROR "fastmib_generate: no fastmib-gen (use find_package(fastmib))")
  endif()

  set(_outputs ${outdir}/${_prefix}_stats.h ${outdir}/${_prefix}_schema.c
               ${outdir}/${_module}.txt)
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND ${_gen} "${model}" -o "${outdir}"
    DEPENDS "${model}" ${_gen_dep}
    COMMENT "fastmib-gen ${model}"
    VERBATIM)
  add_library(${target} STATIC ${outdir}/${_prefix}_schema.c ${outdir}/${_prefix}_stats.h)
  target_include_directories(${target} PUBLIC ${outdir})
  target_link_libraries(${target} PUBLIC ${_link})
  set_target_properties(${target} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    FASTMIB_PREFIX "${_prefix}"
    FASTMIB_MODULE "${_module}"
    FASTMIB_MIB "${outdir}/${_module}.txt")

  if(_fg_INSTALL_MIB)
    if(NOT _fg_MIB_DESTINATION)
      include(GNUInstallDirs)
      set(_fg_MIB_DESTINATION ${CMAKE_INSTALL_DATADIR}/snmp/mibs)
    endif()
    set(_component)
    if(_fg_MIB_COMPONENT)
      set(_component COMPONENT ${_fg_MIB_COMPONENT})
    endif()
    # the custom command's outputs are relative to the binary directory
    get_filename_component(_mib "${outdir}/${_module}.txt" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    install(FILES "${_mib}" DESTINATION ${_fg_MIB_DESTINATION} ${_component})
  endif()
endfunction()
