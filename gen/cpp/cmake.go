package cpp

import (
	"sdp/gen"
	"sdp/gen/emit"
)

// cmake emits a CMakeLists.txt that builds the generated code as a library
// (target NAME, alias sdp::NAME), usable standalone or via add_subdirectory.
func (g *generator) cmake() []byte {
	p := emit.New("  ")
	p.P("# ", gen.Header(g.s))
	p.P("cmake_minimum_required(VERSION 3.14)")
	p.P("project(", g.file, "_sdp LANGUAGES CXX)")
	p.P()
	p.P("add_library(", g.file, " ", g.file, ".cpp ", g.file, ".hpp)")
	p.P("add_library(sdp::", g.file, " ALIAS ", g.file, ")")
	p.P("target_compile_features(", g.file, " PUBLIC cxx_std_17)")
	p.P("target_include_directories(", g.file, " PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})")
	return p.Bytes()
}
