# The layering check (docs/layers.md): every `#include "<layer>/..."` in our sources names the
# includer's own layer or one that its target links, directly or through the links of its links,
# as declared in the CMakeLists.txt files. Run with CMake alone (no compiler, no python):
#
#   cmake -DROOT=<source tree> [-DFORBID="gadgets>groth16 ..."] -P cmake/check_layers.cmake
#
# A layer is a folder src/<layer>/ that has a CMakeLists.txt: layers are discovered, never listed
# here. The checked folders ("units") are src/<layer>, apps/<app>, bench and bench/<sub> (each
# with a CMakeLists.txt). In a unit, the targets are read from cuzk_library(<name> SOURCES ..
# DEPS ..) (target cuzk_<name>, linked as cuzk::<name>), cuzk_bench(<name> ..) (bench_<name>),
# add_library, add_executable and target_link_libraries(<target> [PUBLIC|PRIVATE|INTERFACE] ..);
# a call whose name is a variable (inside a function body) is skipped. A source file listed in a
# target's SOURCES may include what that target links; any other file of the unit (headers, .cuh)
# what any target of the unit links. Definitions under if() count whichever branch they are in
# (a union: the check does not evaluate options such as CUZK_WITH_CUDA).
#
# Also checked: no link cycle between two folders, and each FORBID pair "a>b" (layer a must not
# depend on layer b, even through another layer; shared/DESIGN.md: gadgets never on groth16).
#
# Output: one line per violation, `path:line: ...`, naming the link that is missing; the script
# fails (FATAL_ERROR) when there is any, and prints the layer graph it read otherwise (nothing with
# -DQUIET=ON). The build runs it before any of our libraries (target cuzk_check_layers,
# cmake/CuzkTarget.cmake), and so does the ctest test `layers`.

cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED ROOT)
  message(FATAL_ERROR "check_layers: pass -DROOT=<source tree> (the folder holding src/)")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
if(NOT IS_DIRECTORY "${ROOT}/src")
  message(FATAL_ERROR "check_layers: ${ROOT}/src is not a folder")
endif()

# --- the layers and the units --------------------------------------------------------------------

set(layers "")
set(units "")
file(GLOB children LIST_DIRECTORIES true "${ROOT}/src/*")
list(SORT children)
foreach(dir IN LISTS children)
  if(IS_DIRECTORY "${dir}" AND EXISTS "${dir}/CMakeLists.txt")
    get_filename_component(name "${dir}" NAME)
    list(APPEND layers "${name}")
    list(APPEND units "${dir}")
    set(layer_of_unit_${name} "${name}")
  endif()
endforeach()
if(NOT layers)
  message(FATAL_ERROR "check_layers: no layer found (no src/<layer>/CMakeLists.txt under ${ROOT})")
endif()
file(GLOB extra LIST_DIRECTORIES true "${ROOT}/apps/*" "${ROOT}/bench" "${ROOT}/bench/*")
list(SORT extra)
foreach(dir IN LISTS extra)
  if(IS_DIRECTORY "${dir}" AND EXISTS "${dir}/CMakeLists.txt")
    list(APPEND units "${dir}")
  endif()
endforeach()

# --- the targets: definitions, sources, links ---------------------------------------------------

# Target names become variable names below; ':' is kept out of them (cuzk::x is cuzk_x).
function(normalize_target out token)
  string(REGEX REPLACE "^cuzk::" "cuzk_" token "${token}")
  set(${out} "${token}" PARENT_SCOPE)
endfunction()

set(commands "cuzk_library|cuzk_bench|add_library|add_executable|target_link_libraries")
set(all_targets "")
set(keywords SOURCES DEPS LABELS STATIC SHARED OBJECT MODULE INTERFACE PUBLIC PRIVATE
             EXCLUDE_FROM_ALL WIN32 MACOSX_BUNDLE IMPORTED GLOBAL)
foreach(unit IN LISTS units)
  file(RELATIVE_PATH unit_rel "${ROOT}" "${unit}")
  file(READ "${unit}/CMakeLists.txt" text)
  # List syntax out of the way (';' separates list items, '[' ']' group them), then comments.
  string(REPLACE ";" " " text "${text}")
  string(REPLACE "[" " " text "${text}")
  string(REPLACE "]" " " text "${text}")
  string(REGEX REPLACE "#[^\n]*" "" text "${text}")
  set(unit_targets_${unit_rel} "")
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_])(${commands})[ \t]*\\([^)]*\\)" calls "${text}")
  foreach(call IN LISTS calls)
    string(REGEX MATCH "(${commands})[ \t]*\\(([^)]*)\\)" _ "${call}")
    set(cmd "${CMAKE_MATCH_1}")
    string(STRIP "${CMAKE_MATCH_2}" args)
    string(REGEX REPLACE "[ \t\r\n]+" ";" args "${args}")
    list(POP_FRONT args name)
    if(name MATCHES "\\$" OR "ALIAS" IN_LIST args OR "IMPORTED" IN_LIST args)
      continue()
    endif()
    if(cmd STREQUAL "cuzk_library")
      set(target "cuzk_${name}")
    elseif(cmd STREQUAL "cuzk_bench")
      set(target "bench_${name}")
    else()
      normalize_target(target "${name}")
    endif()
    if(NOT target IN_LIST all_targets)
      list(APPEND all_targets "${target}")
      set(deps_${target} "")
    endif()
    if(NOT cmd STREQUAL "target_link_libraries")
      set(unit_of_${target} "${unit_rel}")
      list(APPEND unit_targets_${unit_rel} "${target}")
    endif()
    # cuzk_library/cuzk_bench: SOURCES .. DEPS ..; add_library/add_executable: sources after the
    # keywords; target_link_libraries: links after the keyword.
    if(cmd STREQUAL "target_link_libraries")
      set(section DEPS)
    elseif(cmd MATCHES "^cuzk_")
      set(section NONE)
    else()
      set(section SOURCES)
    endif()
    foreach(arg IN LISTS args)
      if(arg STREQUAL "SOURCES" OR arg STREQUAL "DEPS")
        set(section "${arg}")
      elseif(arg IN_LIST keywords)
        # a library kind or a link scope: the section goes on
      elseif(arg MATCHES "\\$")
        # a variable or generator expression: not read
      elseif(section STREQUAL "SOURCES")
        get_filename_component(path "${arg}" ABSOLUTE BASE_DIR "${unit}")
        file(RELATIVE_PATH path "${ROOT}" "${path}")
        list(APPEND targets_of_file_${path} "${target}")
        list(APPEND unit_sources_${unit_rel} "${path}")
      elseif(section STREQUAL "DEPS")
        normalize_target(dep "${arg}")
        list(APPEND deps_${target} "${dep}")
      endif()
    endforeach()
  endforeach()
endforeach()

# The layer of a target: the src/ folder that defines it (none for apps, bench and outside ones).
foreach(target IN LISTS all_targets)
  set(layer_of_${target} "")
  if(DEFINED unit_of_${target} AND unit_of_${target} MATCHES "^src/([^/]+)$")
    set(layer_of_${target} "${CMAKE_MATCH_1}")
  endif()
endforeach()

# Each target's links, transitively (a worklist; links to targets not defined in the units, such
# as fmt::fmt or cuzk::proto, are kept but lead nowhere).
foreach(target IN LISTS all_targets)
  set(seen "")
  set(work ${deps_${target}})
  while(work)
    list(POP_FRONT work dep)
    if(dep IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${dep}")
    if(DEFINED deps_${dep})
      list(APPEND work ${deps_${dep}})
    endif()
  endwhile()
  set(closure_${target} ${seen})
  set(reach_layers_${target} "")
  foreach(dep IN LISTS seen)
    if(DEFINED layer_of_${dep} AND NOT layer_of_${dep} STREQUAL "")
      list(APPEND reach_layers_${target} "${layer_of_${dep}}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES reach_layers_${target})
endforeach()

set(violations "")
# report(<text>...): one violation, its pieces concatenated.
function(report)
  string(CONCAT text ${ARGN})
  message("${text}")
  set(violations ${violations} "${text}" PARENT_SCOPE)
endfunction()

# --- the links between layers: no cycle, no forbidden dependency --------------------------------

foreach(layer IN LISTS layers)
  set(layer_reach_${layer} "")
  foreach(target IN LISTS unit_targets_src/${layer})
    list(APPEND layer_reach_${layer} ${reach_layers_${target}})
  endforeach()
  list(REMOVE_DUPLICATES layer_reach_${layer})
  list(REMOVE_ITEM layer_reach_${layer} "${layer}")
endforeach()
foreach(layer IN LISTS layers)
  foreach(target IN LISTS unit_targets_src/${layer})
    foreach(dep IN LISTS closure_${target})
      if(NOT DEFINED layer_of_${dep} OR layer_of_${dep} STREQUAL ""
         OR layer_of_${dep} STREQUAL layer)
        continue()
      endif()
      if(layer IN_LIST reach_layers_${dep})
        report("src/${layer}/CMakeLists.txt: link cycle: ${target} (layer ${layer}) links ${dep} "
               "(layer ${layer_of_${dep}}), which links back into ${layer}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(DEFINED FORBID)
  string(REGEX REPLACE "[ \t\n]+" ";" forbid_pairs "${FORBID}")
  foreach(pair IN LISTS forbid_pairs)
    if(NOT pair MATCHES "^([A-Za-z0-9_]+)>([A-Za-z0-9_]+)$")
      message(FATAL_ERROR "check_layers: FORBID entry '${pair}' is not of the form lower>upper")
    endif()
    set(a "${CMAKE_MATCH_1}")
    set(b "${CMAKE_MATCH_2}")
    if(a IN_LIST layers AND b IN_LIST layer_reach_${a})
      report("src/${a}/CMakeLists.txt: ${a} depends on ${b} (directly or through its links), "
             "which is forbidden")
    endif()
  endforeach()
endif()

# --- the includes ------------------------------------------------------------------------------

# `#include "<folder>/..."`: the header (1) and its first folder (2), a layer or not.
set(include_re "^[ \t]*#[ \t]*include[ \t]*\"(([^\"/]+)/[^\"]+)\"")
set(checked_files 0)
set(checked_includes 0)
foreach(unit IN LISTS units)
  file(RELATIVE_PATH unit_rel "${ROOT}" "${unit}")
  set(unit_layer "")
  if(unit_rel MATCHES "^src/([^/]+)$")
    set(unit_layer "${CMAKE_MATCH_1}")
  endif()
  # What a file not in any SOURCES list may include: whatever any target of the unit links.
  set(unit_reach "")
  foreach(target IN LISTS unit_targets_${unit_rel})
    list(APPEND unit_reach ${reach_layers_${target}})
  endforeach()
  list(REMOVE_DUPLICATES unit_reach)

  # A layer's subfolders are its own; apps/ and bench/ hold other units (bench/drivers) and code
  # that is not ours (bench/peers) below them.
  set(glob GLOB)
  if(NOT unit_layer STREQUAL "")
    set(glob GLOB_RECURSE)
  endif()
  file(${glob} files RELATIVE "${ROOT}"
       "${unit}/*.hpp" "${unit}/*.h" "${unit}/*.cpp" "${unit}/*.cu" "${unit}/*.cuh")
  list(APPEND files ${unit_sources_${unit_rel}})
  list(REMOVE_DUPLICATES files)
  list(SORT files)
  foreach(file IN LISTS files)
    if(NOT file MATCHES "\\.(hpp|h|cpp|cu|cuh)$" OR NOT EXISTS "${ROOT}/${file}")
      continue()
    endif()
    math(EXPR checked_files "${checked_files} + 1")
    if(DEFINED targets_of_file_${file})
      set(owners ${targets_of_file_${file}})
      set(reach "")
      foreach(target IN LISTS owners)
        list(APPEND reach ${reach_layers_${target}})
      endforeach()
    else()
      set(owners ${unit_targets_${unit_rel}})
      set(reach ${unit_reach})
    endif()
    string(REPLACE ";" ", " owners_text "${owners}")
    if(owners_text STREQUAL "")
      set(owners_text "no target")
    endif()
    file(STRINGS "${ROOT}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    set(bad_headers "")
    foreach(inc IN LISTS includes)
      if(NOT inc MATCHES "${include_re}")
        continue()  # "local.hpp": the same folder
      endif()
      set(header "${CMAKE_MATCH_1}")
      set(to "${CMAKE_MATCH_2}")
      if(NOT to IN_LIST layers)
        continue()  # not a layer's header (generated, tests/support, ...)
      endif()
      math(EXPR checked_includes "${checked_includes} + 1")
      if(NOT to STREQUAL unit_layer AND NOT to IN_LIST reach)
        list(APPEND bad_headers "${header}")
      endif()
    endforeach()
    if(NOT bad_headers)
      continue()
    endif()
    # A file with a violation is read again line by line, for the line numbers (rare: only then).
    set(from "${unit_layer}")
    if(from STREQUAL "")
      set(from "${unit_rel}")
    endif()
    file(READ "${ROOT}/${file}" content)
    string(REPLACE ";" " " content "${content}")
    string(REPLACE "[" " " content "${content}")
    string(REPLACE "]" " " content "${content}")
    string(REPLACE "\n" ";" lines "${content}")
    set(n 0)
    foreach(text IN LISTS lines)
      math(EXPR n "${n} + 1")
      if(NOT text MATCHES "${include_re}" OR NOT CMAKE_MATCH_1 IN_LIST bad_headers)
        continue()
      endif()
      set(header "${CMAKE_MATCH_1}")
      set(to "${CMAKE_MATCH_2}")
      set(why "")
      if(NOT unit_layer STREQUAL "" AND unit_layer IN_LIST layer_reach_${to})
        set(why " (an upward include: ${to} itself depends on ${unit_layer})")
      endif()
      report("${file}:${n}: includes \"${header}\" of layer ${to}, but ${from} (${owners_text}) "
             "does not link cuzk::${to}, directly or through its links${why}")
    endforeach()
  endforeach()
endforeach()

list(LENGTH violations count)
if(count GREATER 0)
  message(FATAL_ERROR "check_layers: ${count} violation(s) in ${ROOT} (docs/layers.md; the build "
                      "runs this check unless configured with -DCUZK_CHECK_LAYERS=OFF)")
endif()
if(QUIET)
  return()
endif()
foreach(layer IN LISTS layers)
  string(REPLACE ";" " " reach_text "${layer_reach_${layer}}")
  message("  ${layer} -> ${reach_text}")
endforeach()
list(LENGTH layers layer_count)
message("check_layers: ${checked_includes} includes in ${checked_files} files follow the links of "
        "the ${layer_count} layers above")
