package cpp

import (
	"sdp/gen"
	"sdp/gen/emit"
)

// cmake emits a CMakeLists.txt that builds the generated code as a static
// library: target NAME with the alias sdp::NAME for add_subdirectory users,
// and install rules that export it as sdp::NAME for find_package(NAME).
func (g *generator) cmake() []byte {
	f := g.file
	p := emit.New("  ")
	p.P("# ", gen.Header(g.s))
	p.P("cmake_minimum_required(VERSION 3.14)")
	p.P("project(", f, "_sdp LANGUAGES CXX)")
	p.P()
	p.P("include(GNUInstallDirs)")
	p.P()
	p.P("add_library(", f, " ", f, ".cpp ", f, ".hpp)")
	p.P("add_library(sdp::", f, " ALIAS ", f, ")")
	p.P("target_compile_features(", f, " PUBLIC cxx_std_17)")
	p.P("target_include_directories(", f, " PUBLIC")
	p.P("  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>")
	p.P("  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)")
	p.P("set_target_properties(", f, " PROPERTIES PUBLIC_HEADER ", f, ".hpp)")
	p.P()
	p.P("# cmake --install puts the library, the header and ", f, "Config.cmake under")
	p.P("# the prefix; find_package(", f, " CONFIG) then provides sdp::", f, ".")
	p.P("install(TARGETS ", f, " EXPORT ", f, "Targets")
	p.P("  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}")
	p.P("  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}")
	p.P("  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}")
	p.P("  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})")
	p.P("install(EXPORT ", f, "Targets")
	p.P("  NAMESPACE sdp::")
	p.P("  FILE ", f, "Config.cmake")
	p.P("  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/", f, ")")
	return p.Bytes()
}
