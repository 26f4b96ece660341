# Build settings shared by every cuzk target: warnings as errors on our own code, the src/ include
# root, and the sanitizers of the `asan` preset.

set(CUZK_SOURCE_ROOT ${PROJECT_SOURCE_DIR}/src)

# The layering check (docs/layers.md, cmake/check_layers.cmake): each `#include "<layer>/..."` against
# the links declared in the CMakeLists.txt files, before any of our libraries builds, so an upward
# or undeclared include fails the build (about a second, CMake alone; it runs on every build).
# CUZK_LAYER_FORBID: dependencies shared/DESIGN.md rules out that the links alone do not state.
set(CUZK_LAYER_FORBID "gadgets>groth16")
if(CUZK_CHECK_LAYERS)
  add_custom_target(cuzk_check_layers
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DFORBID=${CUZK_LAYER_FORBID}" -DQUIET=ON
            -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    COMMENT "Checking the includes against the layers' links (docs/layers.md)"
    VERBATIM)
endif()

if(CUZK_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=address,undefined)
endif()
# CUZK_FUZZ (the asan preset): the fuzz targets and every library they link also record coverage
# for libFuzzer (cmake/CuzkFuzz.cmake: cuzk_fuzz_instrument; the fuzzer's runtime is linked into
# the fuzz targets alone).
if(CUZK_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "CUZK_FUZZ needs clang (libFuzzer): configure with the `asan` preset")
endif()

# cuzk_defaults(<target>): our warnings and include root on one of our own targets.
function(cuzk_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-error=deprecated-declarations>)
endfunction()

# cuzk_test_defaults(<target>): cuzk_defaults on a test program (tests/: the unit tests, the fuzz
# targets' replays, their helpers), whose own sources a Release build compiles at CUZK_TEST_OPT
# (-O1) while the libraries they test keep -O3: -O3 code generation of the tests' templates was
# most of CI's release build (docs/PERF.md 31b). Empty: the build type's flags.
set(CUZK_TEST_OPT "-O1" CACHE STRING "Optimisation of the test programs' own sources in Release builds (empty: -O3 as the libraries)")
function(cuzk_test_defaults target)
  cuzk_defaults(${target})
  if(CUZK_TEST_OPT)
    target_compile_options(${target} PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release>>:${CUZK_TEST_OPT}>)
  endif()
endfunction()

# CI (scripts/test) compiles each library's sources as one unity source: src/'s C++ 447 -> ~255
# CPU-s at -O3 (docs/PERF.md 31c). Off by default: a developer editing one file would recompile
# its whole library. A source with its own compile options or definitions stays apart (CMake).
option(CUZK_LIB_UNITY "Compile each src/ library's sources as one unity source (scripts/test)" OFF)

# cuzk_library(<name> SOURCES ... DEPS ...): the library of one src/ folder, linked only to the
# layers below it.
function(cuzk_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(ARG_SOURCES)
    add_library(cuzk_${name} STATIC ${ARG_SOURCES})
    if(CUZK_LIB_UNITY)
      set_target_properties(cuzk_${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
    endif()
    target_include_directories(cuzk_${name} PUBLIC ${CUZK_SOURCE_ROOT})
    target_link_libraries(cuzk_${name} PUBLIC ${ARG_DEPS})
    cuzk_defaults(cuzk_${name})
  else()
    add_library(cuzk_${name} INTERFACE)
    target_include_directories(cuzk_${name} INTERFACE ${CUZK_SOURCE_ROOT})
    target_link_libraries(cuzk_${name} INTERFACE ${ARG_DEPS})
  endif()
  if(TARGET cuzk_check_layers)
    add_dependencies(cuzk_${name} cuzk_check_layers)
  endif()
  add_library(cuzk::${name} ALIAS cuzk_${name})
endfunction()
