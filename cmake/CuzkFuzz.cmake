# Fuzz targets (docs/fuzzing.md). A target is one source defining the libFuzzer entry point
#   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
# that hands the bytes to one decoder. It is built two ways from the same source:
#   - preset `fuzz` (CUZK_FUZZ=ON, clang): a libFuzzer program fuzz_<name>, all code instrumented
#     and under ASan + UBSan; scripts/fuzz runs it on tests/fuzz/corpus/<name>.
#   - every other build: fuzz_<name> links tests/fuzz/replay_main.cpp instead (one object for all
#     of them), a plain program that feeds it each file of the corpus and of
#     tests/fuzz/regressions/<name>.
# Either way ctest's fuzz.<name> (label fuzz) replays the corpus and the regressions, so every
# crash once found stays tested in the release and asan presets without clang's fuzzer.

set(CUZK_FUZZ_ROOT ${PROJECT_SOURCE_DIR}/tests/fuzz)
if(CUZK_FUZZ)
  add_custom_target(cuzk_fuzz)  # every fuzz target: the `fuzz` build preset builds this alone
  file(GLOB CUZK_FUZZ_REGRESSION_DIRS CONFIGURE_DEPENDS LIST_DIRECTORIES true ${CUZK_FUZZ_ROOT}/regressions/*)
endif()

# cuzk_fuzz_target(<name> SOURCES ... DEPS ...): the fuzz target <name> (sources relative to the
# calling directory, tests/fuzz), linked to the libraries DEPS.
function(cuzk_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  set(target fuzz_${name})
  set(inputs ${CUZK_FUZZ_ROOT}/corpus/${name} ${CUZK_FUZZ_ROOT}/regressions/${name})
  if(CUZK_FUZZ)
    add_executable(${target} ${ARG_SOURCES})
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    add_dependencies(cuzk_fuzz ${target})
    # -runs=0: run the given inputs once each, mutate nothing. libFuzzer refuses a directory that
    # is not there (a target without regressions has none); the glob above re-runs CMake when one
    # appears.
    set(present "")
    foreach(dir ${inputs})
      if(IS_DIRECTORY ${dir})
        list(APPEND present ${dir})
      endif()
    endforeach()
    add_test(NAME fuzz.${name} COMMAND ${target} -runs=0 ${present})
  else()
    if(NOT TARGET cuzk_fuzz_replay_main)  # compiled once for every target
      add_library(cuzk_fuzz_replay_main OBJECT ${CUZK_FUZZ_ROOT}/replay_main.cpp)
      target_include_directories(cuzk_fuzz_replay_main PRIVATE ${PROJECT_SOURCE_DIR}/tests ${CUZK_SOURCE_ROOT})
      cuzk_test_defaults(cuzk_fuzz_replay_main)
    endif()
    add_executable(${target} ${ARG_SOURCES})
    target_link_libraries(${target} PRIVATE cuzk_fuzz_replay_main)
    add_test(NAME fuzz.${name} COMMAND ${target} ${inputs})
  endif()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${target} PRIVATE ${ARG_DEPS})
  cuzk_test_defaults(${target})
  set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz)
  # scripts/fuzz reads the list: "<name> <program>" per line, in the build tree's fuzz-targets.txt.
  set_property(GLOBAL APPEND PROPERTY CUZK_FUZZ_TARGETS "${name} $<TARGET_FILE:${target}>")
endfunction()

# <build>/fuzz-targets.txt, written once every target is declared (deferred to the end of the
# top-level CMakeLists.txt, which includes this file).
function(cuzk_fuzz_write_target_list)
  get_property(targets GLOBAL PROPERTY CUZK_FUZZ_TARGETS)
  list(JOIN targets "\n" text)
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fuzz-targets.txt CONTENT "${text}\n")
endfunction()
cmake_language(DEFER CALL cuzk_fuzz_write_target_list)
