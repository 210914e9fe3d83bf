# One run of the test suite, and what it may leave behind: nothing.
#
# Every test of this tree runs with FASTMIB_TEST_TAG, a tag of this build
# tree, in its environment (so every process it starts carries it) and in
# the name of everything it makes outside its temporary directory: EAL
# --file-prefix (the runtime directory in /var/run/dpdk), segments in
# /dev/shm. TMPDIR points into a temporary directory of the tree's own.
# suite.begin (fixture setup) records what already carries the tag;
# suite.leftovers (fixture cleanup, after the last test) fails naming
# whatever the run added and left: tests/leftovers/leftovers.py.
#
# Each CMakeLists.txt that adds tests calls fastmib_suite_tests() first.
string(MD5 _fastmib_tree_hash "${CMAKE_BINARY_DIR}")
string(SUBSTRING "${_fastmib_tree_hash}" 0 8 _fastmib_tree_hash)
set(FASTMIB_TEST_TAG "fmt${_fastmib_tree_hash}")
# Under /tmp whatever TMPDIR the configuring shell had: a tree configured
# inside a test (the ThreadSanitizer build) must not nest in that run's.
set(FASTMIB_TEST_TMPDIR "/tmp/${FASTMIB_TEST_TAG}")

# What every test of the suite gets: the tag, the temporary directory, and
# the pytest plugin that keeps pytest's own temporary files in it.
set(FASTMIB_SUITE_ENV
  FASTMIB_TEST_TAG=${FASTMIB_TEST_TAG}
  TMPDIR=${FASTMIB_TEST_TMPDIR}
  PYTHONPATH=${PROJECT_SOURCE_DIR}/tests/lib
  PYTEST_PLUGINS=suiterun_pytest)

function(fastmib_suite_tests)
  cmake_language(DEFER CALL _fastmib_suite_mark_tests)
endfunction()

# At the end of the directory: every test in it joins the run.
function(_fastmib_suite_mark_tests)
  get_directory_property(_tests TESTS)
  foreach(t ${_tests})
    if(t MATCHES "^suite[.]")
      continue()
    endif()
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT ${FASTMIB_SUITE_ENV})
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED fastmib_suite)
  endforeach()
  set_property(GLOBAL APPEND PROPERTY FASTMIB_SUITE_DIRS ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# At the end of the top directory: no directory adds tests outside the run.
function(_fastmib_suite_check_dirs dir)
  get_property(_tests DIRECTORY ${dir} PROPERTY TESTS)
  get_property(_marked GLOBAL PROPERTY FASTMIB_SUITE_DIRS)
  if(_tests AND NOT dir IN_LIST _marked)
    message(FATAL_ERROR "${dir}/CMakeLists.txt adds tests (${_tests}) "
            "without calling fastmib_suite_tests() (cmake/SuiteRun.cmake)")
  endif()
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(d ${_subdirs})
    _fastmib_suite_check_dirs(${d})
  endforeach()
endfunction()

function(_fastmib_suite_check)
  _fastmib_suite_check_dirs(${PROJECT_SOURCE_DIR})
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _fastmib_suite_check)
