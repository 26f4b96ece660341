# The layering check on a fake tree with known faults (tests/layers/fake, docs/layers.md), so that
# the `layers` test cannot pass by checking nothing. Each fault is a file of the fake tree that says
# "expected: <file>:<line>"; the allowed includes beside them (same layer, through a link's links,
# a header of a folder with two targets, an app's local header, an include in a comment) must not
# be reported: the count of reports is exact.
#
#   cmake -DCHECKER=cmake/check_layers.cmake -DFAKE=tests/layers/fake -P tests/layers/self_test.cmake

cmake_minimum_required(VERSION 3.25)

execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DROOT=${FAKE}" "-DFORBID=top>side" -P "${CHECKER}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(out "${out}${err}")
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "self_test: the checker passed a tree with known violations")
endif()

set(expected
  # an upward include, found below the same include in a comment
  "src/base/base.hpp:5: includes \"top/top.hpp\" of layer top, but base \\(cuzk_base\\) does not link cuzk::top, directly or through its links \\(an upward include: top itself depends on base\\)"
  # a layer that is not above, but not linked either
  "src/mid/mid.cpp:6: includes \"side/side.hpp\" of layer side, but mid \\(cuzk_mid\\) does not link cuzk::side"
  # a listed source judged by its own target, not by its folder's other target
  "src/top/top.cpp:4: includes \"side/side.hpp\" of layer side, but top \\(cuzk_top\\) does not link cuzk::side"
  # a file in a subfolder of a layer
  "src/mid/detail/deep.hpp:4: includes \"top/top.hpp\" of layer top, but mid \\(cuzk_mid\\) does not link cuzk::top"
  # an app
  "apps/tool/main.cpp:4: includes \"top/top.hpp\" of layer top, but apps/tool \\(tool\\) does not link cuzk::top"
  # the link graph: a cycle (both ends) and a forbidden dependency
  "src/loop_a/CMakeLists.txt: link cycle: cuzk_loop_a \\(layer loop_a\\) links cuzk_loop_b"
  "src/loop_b/CMakeLists.txt: link cycle: cuzk_loop_b \\(layer loop_b\\) links cuzk_loop_a"
  "src/top/CMakeLists.txt: top depends on side \\(directly or through its links\\), which is forbidden"
  "check_layers: 8 violation\\(s\\)")
set(missing 0)
foreach(line IN LISTS expected)
  if(NOT out MATCHES "${line}")
    message(SEND_ERROR "self_test: the checker did not report: ${line}")
    math(EXPR missing "${missing} + 1")
  endif()
endforeach()
string(REGEX MATCHALL "(^|\n)(src|apps)/[^\n]*" reports "${out}")
list(LENGTH reports count)
if(NOT count EQUAL 8)
  message(SEND_ERROR "self_test: ${count} reports, expected exactly 8 (an allowed include was reported?)")
endif()
if(missing GREATER 0 OR NOT count EQUAL 8)
  message(FATAL_ERROR "self_test: failed")
endif()
message("self_test: the checker reports exactly the 8 known faults of ${FAKE}")
