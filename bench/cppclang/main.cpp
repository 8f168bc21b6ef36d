// The C++ harness built with clang++: the SDP C++ backend only
// (bench/cpp/sdp_cpp.cpp), reported as its own column, "C++ (clang)". The
// generated code takes a path of its own under clang (arrays decoded into a
// vector without a zero-fill, docs/cpp.md), and clang is the compiler of the
// macOS collectors SDP is made for; the peers stay in bench/cpp (g++).
#include <string>

#include "harness.h"

void bench_sdp_cpp(bench_workload* w);

int main(int argc, char** argv) {
  std::string tool = std::string("clang++ ") + __clang_version__;
  bench_init(argc, argv, "cppclang", tool.c_str());
  for (int i = 0; i < bench_count(); i++) {
    bench_sdp_cpp(bench_get(i));
  }
  return bench_finish();
}
