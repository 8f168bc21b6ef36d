// C++ peers of the benchmark: Protocol Buffers (filled from the workload's
// JSON document with protobuf's own JSON parser), FlatBuffers (object API,
// filled from the protobuf values) and Cap'n Proto (built from the protobuf
// values). Each measures encode, decode and, where the library has them,
// reused-buffer encode and zero-copy views that read every field.
#pragma once

#include "harness.h"

void bench_peers(bench_workload* w);
