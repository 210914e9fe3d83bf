# snmpd is not instrumented: a sanitizer build of the module it loads needs
# the sanitizer runtime preloaded. Every test or benchmark check that starts
# an snmpd with the module passes FASTMIB_TEST_SNMPD_ENV in its environment
# to tests/lib/snmpharness.py.
set(FASTMIB_TEST_SNMPD_ENV)
if(FASTMIB_SANITIZE OR FASTMIB_TSAN)
  set(_preload)
  foreach(rt ${FASTMIB_SANITIZER_RUNTIMES})
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=${rt}
                    OUTPUT_VARIABLE _rt OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND _preload ${_rt})
  endforeach()
  list(JOIN _preload ":" _preload)
  set(FASTMIB_TEST_SNMPD_ENV FASTMIB_SNMPD_PRELOAD=${_preload})
endif()
