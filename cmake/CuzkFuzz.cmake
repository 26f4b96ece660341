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
set(CUZK_FUZZ_COVERAGE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)  # libFuzzer's coverage
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
    target_compile_options(${target} PRIVATE ${CUZK_FUZZ_COVERAGE})
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    set_property(GLOBAL APPEND PROPERTY CUZK_FUZZ_DEPS ${ARG_DEPS})
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

# Coverage for libFuzzer only where a fuzz target runs: its own sources and the libraries it links,
# all the way down (deferred to the end, when every target is declared). The tests, the app and the
# libraries no fuzz target links do without it under the sanitizers: it cost ~25 % of their ASan
# compile (docs/PERF.md 31b), and no fuzzer ever read it.
function(cuzk_fuzz_instrument)
  get_property(todo GLOBAL PROPERTY CUZK_FUZZ_DEPS)
  set(done "")
  while(todo)
    list(POP_FRONT todo dep)
    if(dep MATCHES "^\\$<LINK_ONLY:(.*)>$")  # a static library's private dependency
      set(dep ${CMAKE_MATCH_1})
    endif()
    if(NOT TARGET ${dep})  # a plain library name, a linker flag
      continue()
    endif()
    get_target_property(aliased ${dep} ALIASED_TARGET)
    if(aliased)
      set(dep ${aliased})
    endif()
    get_target_property(imported ${dep} IMPORTED)
    if(dep IN_LIST done OR imported)
      continue()
    endif()
    list(APPEND done ${dep})
    get_target_property(type ${dep} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${dep} INTERFACE_LINK_LIBRARIES)
    else()
      set_property(TARGET ${dep} APPEND PROPERTY COMPILE_OPTIONS ${CUZK_FUZZ_COVERAGE})
      get_target_property(links ${dep} LINK_LIBRARIES)
    endif()
    if(links)
      list(APPEND todo ${links})
    endif()
  endwhile()
endfunction()
if(CUZK_FUZZ)
  cmake_language(DEFER CALL cuzk_fuzz_instrument)
endif()
