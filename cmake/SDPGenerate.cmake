# SDPGenerate.cmake: generate SDP encoders and decoders at build time.
#
#   list(APPEND CMAKE_MODULE_PATH "<sdp checkout>/cmake")   # or copy this file
#   include(SDPGenerate)
#   sdp_generate(sensors SCHEMA sensors.sdp)               # C++17 library
#   sdp_generate(sensors_c SCHEMA sensors.sdp LANG c)      # C99 library
#   target_link_libraries(app PRIVATE sdp::sensors)
#
# sdp_generate(<target> SCHEMA <file.sdp>
#              [LANG cpp|c]              # default cpp
#              [PACKAGE <name>]          # sdp gen --package (default: the schema's base name)
#              [SDP_EXECUTABLE <path>]   # default: the SDP_EXECUTABLE cache variable
#              [OUT_DIR <dir>]           # default: ${CMAKE_CURRENT_BINARY_DIR}/sdp/<target>
#              [NAMESPACE <ns>]          # the alias is <ns>::<target>; default sdp
#              [INSTALL])                # install and export the library (below)
#
# adds a custom command that runs `sdp gen --lang LANG --out OUT_DIR SCHEMA`
# whenever the schema (or the sdp executable) is newer than the generated
# files, and a static library <target> built from them, with the output
# directory as a PUBLIC include directory (BUILD_INTERFACE), the language
# standard the code needs as a compile feature, and the alias <ns>::<target>.
# The generated files are named after PACKAGE or the schema's base name
# (sensors.sdp gives sensors.hpp/sensors.cpp, or sensors.h/sensors.c).
#
# The sdp executable is found once per build tree, in this order: the
# SDP_EXECUTABLE argument; the SDP_EXECUTABLE cache variable
# (-DSDP_EXECUTABLE=/path/to/sdp); the SDP environment variable; `sdp` on
# PATH or in $(go env GOPATH)/bin (where `go install ./cmd/sdp` puts it).
#
# INSTALL adds install rules: cmake --install puts the library, the header
# and <target>Config.cmake (exporting <ns>::<target>) under the prefix, so
# that another project can find_package(<target> CONFIG). Without it, add
# your own install(TARGETS <target> EXPORT ...) rules; the generated header
# is the target's PUBLIC_HEADER either way.

include_guard(GLOBAL)
include(GNUInstallDirs)

function(_sdp_find_executable out)
  if(NOT SDP_EXECUTABLE)
    if(DEFINED ENV{SDP} AND NOT "$ENV{SDP}" STREQUAL "")
      set(SDP_EXECUTABLE "$ENV{SDP}" CACHE FILEPATH "The sdp executable")
    else()
      set(_hints "")
      if(DEFINED ENV{GOPATH})
        list(APPEND _hints "$ENV{GOPATH}/bin")
      endif()
      if(DEFINED ENV{HOME})
        list(APPEND _hints "$ENV{HOME}/go/bin")
      endif()
      find_program(SDP_EXECUTABLE NAMES sdp HINTS ${_hints} DOC "The sdp executable")
    endif()
  endif()
  if(NOT SDP_EXECUTABLE)
    message(FATAL_ERROR "sdp_generate: the sdp executable was not found. Build it from an SDP "
      "checkout (go build -o bin/sdp ./cmd/sdp, or go install ./cmd/sdp) and pass "
      "-DSDP_EXECUTABLE=/path/to/sdp, set the SDP environment variable, or put it on PATH.")
  endif()
  set(${out} "${SDP_EXECUTABLE}" PARENT_SCOPE)
endfunction()

function(sdp_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "INSTALL" "SCHEMA;LANG;PACKAGE;SDP_EXECUTABLE;OUT_DIR;NAMESPACE" "")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sdp_generate(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SCHEMA)
    message(FATAL_ERROR "sdp_generate(${target}): SCHEMA <file.sdp> is required")
  endif()
  if(NOT ARG_LANG)
    set(ARG_LANG cpp)
  endif()
  if(NOT ARG_NAMESPACE)
    set(ARG_NAMESPACE sdp)
  endif()
  if(NOT ARG_OUT_DIR)
    set(ARG_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/sdp/${target}")
  endif()
  get_filename_component(out_dir "${ARG_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(ARG_SDP_EXECUTABLE)
    set(sdp "${ARG_SDP_EXECUTABLE}")
  else()
    _sdp_find_executable(sdp)
  endif()

  # The generated files' base name, as the backends derive it from the
  # package name (plain lower-case snake_case names map to themselves).
  if(ARG_PACKAGE)
    set(name "${ARG_PACKAGE}")
    set(package_args --package "${ARG_PACKAGE}")
  else()
    get_filename_component(name "${schema}" NAME_WE)
    set(package_args "")
  endif()
  if(ARG_LANG STREQUAL "cpp")
    string(REGEX REPLACE "(::|[./])+" "_" name "${name}")
    string(REGEX REPLACE "[^A-Za-z0-9_]" "_" name "${name}")
    set(header "${out_dir}/${name}.hpp")
    set(source "${out_dir}/${name}.cpp")
    set(extra "${out_dir}/CMakeLists.txt")
    set(feature cxx_std_17)
  elseif(ARG_LANG STREQUAL "c")
    string(REGEX REPLACE "([a-z0-9])([A-Z])" "\\1_\\2" name "${name}")
    string(TOLOWER "${name}" name)
    string(REGEX REPLACE "[^a-z0-9_]" "_" name "${name}")
    set(header "${out_dir}/${name}.h")
    set(source "${out_dir}/${name}.c")
    set(extra "")
    set(feature c_std_99)
  else()
    message(FATAL_ERROR "sdp_generate(${target}): LANG must be cpp or c, not '${ARG_LANG}'")
  endif()

  add_custom_command(
    OUTPUT "${header}" "${source}" ${extra}
    COMMAND "${sdp}" gen --lang ${ARG_LANG} --out "${out_dir}" ${package_args} "${schema}"
    DEPENDS "${schema}" "${sdp}"
    COMMENT "sdp gen --lang ${ARG_LANG}: ${ARG_SCHEMA}"
    VERBATIM)

  add_library(${target} STATIC "${source}" "${header}")
  add_library(${ARG_NAMESPACE}::${target} ALIAS ${target})
  target_compile_features(${target} PUBLIC ${feature})
  target_include_directories(${target} PUBLIC
    "$<BUILD_INTERFACE:${out_dir}>" "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_target_properties(${target} PROPERTIES PUBLIC_HEADER "${header}")
  if(ARG_INSTALL)
    install(TARGETS ${target} EXPORT ${target}Targets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
      PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    install(EXPORT ${target}Targets
      NAMESPACE ${ARG_NAMESPACE}::
      FILE ${target}Config.cmake
      DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/${target})
  endif()
  set_property(TARGET ${target} PROPERTY SDP_SCHEMA "${schema}")
  set_property(TARGET ${target} PROPERTY SDP_OUT_DIR "${out_dir}")
endfunction()
