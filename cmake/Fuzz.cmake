# libFuzzer targets of the parsers of untrusted input, built with clang
# when it supports -fsanitize=fuzzer (the rest of the tree uses the default
# compiler), and run briefly by the test suite.
#
#   fastmib_fuzz(NAME
#     SOURCES file...     compiled here with the fuzzer, ASan and UBSan
#     INCLUDES dir...     -I
#     DEFINES def...      -D
#     FLAGS flag...       more compiler flags
#     LINK item...        after the objects: libraries, -l..., -Wl,...
#     DEPENDS item...     more files or targets the build waits for
#     CORPUS dir...       the seed corpus in the tree: read, never written
#                         (none for a format that changes: SEED makes one)
#     SEED command...     (optional) writes more seeds into the directory
#                         given as its last argument
#     SECONDS n)          how long the test runs it
#
# The program is BUILD/fuzz/NAME; the test fuzz.NAME starts it on a fresh
# working corpus (what it finds goes there) beside the tree's own, for
# SECONDS seconds. docs/fuzzing.md says how to run one for longer.

find_program(FASTMIB_CLANG NAMES clang-14 clang)
set(FASTMIB_FUZZ OFF)
if(FASTMIB_CLANG AND NOT FASTMIB_TSAN AND NOT FASTMIB_SANITIZE)
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz_probe.c
       "#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND ${FASTMIB_CLANG} -fsanitize=fuzzer,address
                          ${CMAKE_BINARY_DIR}/fuzz_probe.c -o ${CMAKE_BINARY_DIR}/fuzz_probe
                  RESULT_VARIABLE _probe OUTPUT_QUIET ERROR_QUIET)
  if(_probe EQUAL 0)
    set(FASTMIB_FUZZ ON)
  endif()
endif()
if(NOT FASTMIB_FUZZ)
  message(STATUS "fastmib: clang libFuzzer not available; the fuzz targets are not built")
endif()

function(fastmib_fuzz name)
  if(NOT FASTMIB_FUZZ)
    return()
  endif()
  cmake_parse_arguments(F "" "SECONDS" "SOURCES;INCLUDES;DEFINES;FLAGS;LINK;DEPENDS;SEED;CORPUS"
                        ${ARGN})
  set(_flags)
  foreach(d ${F_INCLUDES})
    list(APPEND _flags -I${d})
  endforeach()
  foreach(d ${F_DEFINES})
    list(APPEND _flags -D${d})
  endforeach()
  set(_bin ${CMAKE_BINARY_DIR}/fuzz/${name})
  add_custom_command(
    OUTPUT ${_bin}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/fuzz
    COMMAND ${FASTMIB_CLANG} -g -O1 -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra -Werror
            -Wno-unused-command-line-argument -D_GNU_SOURCE ${_flags} ${F_FLAGS}
            ${F_SOURCES} -o ${_bin} ${F_LINK}
    DEPENDS ${F_SOURCES} ${F_DEPENDS}
    COMMENT "clang libFuzzer: ${name}"
    VERBATIM)
  add_custom_target(fuzz_${name} ALL DEPENDS ${_bin})
  set(_work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name})
  set(_corpus "")
  foreach(d ${F_CORPUS})
    string(APPEND _corpus " '${d}'")
  endforeach()
  set(_seed "")
  if(F_SEED)
    string(JOIN "' '" _seed_cmd ${F_SEED})
    string(REPLACE "@WORK@" "${_work}" _seed_cmd "${_seed_cmd}")
    set(_seed "'${_seed_cmd}' && ")
  endif()
  # -close_fd_mask=3: the parsers' messages are not the run's output
  # (libFuzzer keeps its own); a finding leaves its input in the test's
  # directory (crash-*, leak-*), named in the output
  add_test(NAME fuzz.${name}
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
           COMMAND sh -c "rm -rf '${_work}' && mkdir -p '${_work}' && ${_seed}'${_bin}' -max_total_time=${F_SECONDS} -timeout=10 -rss_limit_mb=1024 -close_fd_mask=3 -print_final_stats=1 '${_work}'${_corpus}")
  set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 120)
endfunction()
