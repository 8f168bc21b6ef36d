// The C++ harness: SDP C++ (owned types and views; bench/cpp/sdp_cpp.cpp,
// built when `sdp gen --lang cpp` works) next to Protocol Buffers,
// FlatBuffers and Cap'n Proto on the same data.
#include <cstdio>
#include <string>

#include "harness.h"
#include "peers.h"

#ifdef HAVE_SDP_CPP
void bench_sdp_cpp(bench_workload* w);
#endif

int main(int argc, char** argv) {
  std::string tool = std::string("g++ ") + __VERSION__;
  bench_init(argc, argv, "cpp", tool.c_str());
#ifndef HAVE_SDP_CPP
  bench_gap("sdp", nullptr, SDP_CPP_GAP);
#endif
  for (int i = 0; i < bench_count(); i++) {
    bench_workload* w = bench_get(i);
#ifdef HAVE_SDP_CPP
    bench_sdp_cpp(w);
#endif
    bench_peers(w);
  }
  return bench_finish();
}
