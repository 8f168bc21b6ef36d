//go:build cgo

// cgo compiles only the .c and .cpp files of the package's own directory: this
// file brings in the C++ code that sdp generated into cpp/.

#include "cpp/registry.cpp"
