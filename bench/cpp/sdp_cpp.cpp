// The SDP C++ backend's benchmarks: the code `sdp gen --lang cpp` generated
// from conformance/schemas, measured on the workload's .sdpb bytes. Owned
// decode and encode, encode into a reused buffer (encode_to), zero-copy
// views (decode + read every field), messages.
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "harness.h"
#include "leaderboard.hpp"
#include "nested.hpp"
#include "optionals.hpp"
#include "plugins.hpp"
#include "primitives.hpp"
#include "run.h"

namespace {

template <class T>
uint64_t bits(T x) {
  if constexpr (std::is_same<T, float>::value) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
  } else if constexpr (std::is_same<T, double>::value) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return u;
  } else {
    return static_cast<uint64_t>(x);
  }
}
template <class A>
uint64_t sum(const A& a) {
  uint64_t t = 0;
  for (auto x : a) t += bits(x);
  return t;
}

uint64_t walk(const primitives::AllPrimitivesView& r) {
  return r.flag + r.u8_val + r.u16_val + r.u32_val + r.u64_val + bits(r.i8_val) + bits(r.i16_val) + bits(r.i32_val) +
         bits(r.i64_val) + bits(r.f32_val) + bits(r.f64_val) + r.label.size();
}
uint64_t walk(const arrays::U32ArrayView& r) { return sum(r.values); }
uint64_t walk(const arrays::I16ArrayView& r) { return sum(r.samples); }
uint64_t walk(const arrays::F32ArrayView& r) { return sum(r.values); }
uint64_t walk(const arrays::ByteArrayView& r) { return sum(r.data); }
uint64_t walk(const arrays::SmallArraysView& r) {
  uint64_t t = sum(r.bytes) + sum(r.words) + sum(r.reals) + sum(r.flags);
  for (auto s : r.names) t += s.size();
  return t;
}
uint64_t walk(const nested::PointView& p) { return bits(p.x) + bits(p.y); }
uint64_t walk(const nested::SceneView& r) {
  uint64_t t = r.name.size() + walk(r.origin);
  for (const auto& x : r.rects) t += walk(x.top_left) + walk(x.bottom_right) + x.color;
  return t;
}
uint64_t walk(const nested::AudioDeviceView& r) {
  uint64_t t = r.id + r.name.size() + static_cast<uint64_t>(r.kind) + r.sample_rate + r.channels;
  for (const auto& p : r.plugins) {
    t += p.name.size() + p.bypassed;
    for (const auto& q : p.parameters) t += q.id + q.name.size() + bits(q.value);
  }
  return t;
}
uint64_t walk(const plugins::PluginRegistryView& r) {
  uint64_t t = r.total_plugin_count + r.total_parameter_count;
  for (const auto& p : r.plugins) {
    t += p.name.size() + p.manufacturer_id.size() + p.component_type.size() + p.component_subtype.size();
    for (const auto& q : p.parameters)
      t += q.address + q.display_name.size() + q.identifier.size() + q.unit.size() + bits(q.min_value) +
           bits(q.max_value) + bits(q.default_value) + bits(q.current_value) + q.raw_flags + q.is_writable +
           q.can_ramp;
  }
  return t;
}
uint64_t walk(const optionals::ReadingView& r) {
  return r.sensor_id + bits(r.value) + (r.calibration ? bits(*r.calibration) : 0) + (r.note ? r.note->size() : 0);
}
uint64_t walk(const leaderboard::StructAView& r) {
  return r.name.size() + bits(r.birth_day) + r.phone.size() + bits(r.siblings) + r.spouse + bits(r.money);
}
uint64_t walk(const leaderboard::Vector3View& v) { return bits(v.x) + bits(v.y) + bits(v.z); }
uint64_t walk(const leaderboard::MeshView& r) {
  uint64_t t = 0;
  for (const auto& x : r.triangles) t += walk(x.v0) + walk(x.v1) + walk(x.v2) + walk(x.normal);
  return t;
}
uint64_t walk(const leaderboard::LogsView& r) {
  uint64_t t = 0;
  for (const auto& l : r.logs)
    t += l.address.x0 + l.address.x1 + l.address.x2 + l.address.x3 + l.identity.size() + l.userid.size() +
         l.date.size() + l.request.size() + l.code + l.size;
  return t;
}

template <class T, class View, class Any>
void bench_type(bench_workload* w) {
  const uint8_t* data = w->sdpb;
  size_t size = w->sdpb_len;
  T v;
  auto st = decode(data, size, v);
  if (!st) {
    std::string why = "decoding the .sdpb: " + st.to_string();
    bench_gap("sdp", w->name, why.c_str());
    return;
  }
  std::vector<uint8_t> enc = encode(v);
  std::vector<uint8_t> msg = encode_message(v);
  Any any;
  View view;
  if (enc.size() != size || std::memcmp(enc.data(), data, size) != 0) {
    bench_gap("sdp", w->name, "self-check failed: re-encoding differs from the .sdpb");
    return;
  }
  if (!decode_any_message(msg.data(), msg.size(), any) || !decode(data, size, view) || !(view.to_owned() == v)) {
    bench_gap("sdp", w->name, "self-check failed: message dispatch or view disagrees");
    return;
  }
  std::vector<uint8_t> buf(size);
  run("sdp", w->name, "encode", size, [&] {
    std::vector<uint8_t> b = encode(v);
    BENCH_ESCAPE(b.data());
  });
  run("sdp", w->name, "encode_reuse", size, [&] {
    bench_sink += encode_to(v, buf.data(), buf.size());
    BENCH_ESCAPE(buf.data());
  });
  run("sdp", w->name, "decode", size, [&] {
    T out;
    if (!decode(data, size, out)) abort();
    BENCH_ESCAPE(&out);
  });
  // Decoding into the value the previous iteration decoded: its strings,
  // vectors and boxes are reused (issue #17), so nothing is allocated.
  T reused;
  run("sdp", w->name, "decode_reuse", size, [&] {
    if (!decode(data, size, reused)) abort();
    BENCH_ESCAPE(&reused);
  });
  run("sdp", w->name, "decode_view", size, [&] {
    View out;
    if (!decode(data, size, out)) abort();
    bench_sink += walk(out);
  });
  run("sdp", w->name, "roundtrip", size, [&] {
    std::vector<uint8_t> b = encode(v);
    T out;
    if (!decode(b.data(), b.size(), out)) abort();
    BENCH_ESCAPE(&out);
  });
  run("sdp", w->name, "msg_encode", msg.size(), [&] {
    std::vector<uint8_t> b = encode_message(v);
    BENCH_ESCAPE(b.data());
  });
  run("sdp", w->name, "msg_decode", msg.size(), [&] {
    Any out;
    if (!decode_any_message(msg.data(), msg.size(), out)) abort();
    BENCH_ESCAPE(&out);
  });
}

}  // namespace

void bench_sdp_cpp(bench_workload* w) {
  std::string t = w->type;
  if (t == "AllPrimitives")
    bench_type<primitives::AllPrimitives, primitives::AllPrimitivesView, primitives::AnyMessage>(w);
  else if (t == "U32Array")
    bench_type<arrays::U32Array, arrays::U32ArrayView, arrays::AnyMessage>(w);
  else if (t == "I16Array")
    bench_type<arrays::I16Array, arrays::I16ArrayView, arrays::AnyMessage>(w);
  else if (t == "F32Array")
    bench_type<arrays::F32Array, arrays::F32ArrayView, arrays::AnyMessage>(w);
  else if (t == "ByteArray")
    bench_type<arrays::ByteArray, arrays::ByteArrayView, arrays::AnyMessage>(w);
  else if (t == "SmallArrays")
    bench_type<arrays::SmallArrays, arrays::SmallArraysView, arrays::AnyMessage>(w);
  else if (t == "Scene")
    bench_type<nested::Scene, nested::SceneView, nested::AnyMessage>(w);
  else if (t == "AudioDevice")
    bench_type<nested::AudioDevice, nested::AudioDeviceView, nested::AnyMessage>(w);
  else if (t == "PluginRegistry")
    bench_type<plugins::PluginRegistry, plugins::PluginRegistryView, plugins::AnyMessage>(w);
  else if (t == "Reading")
    bench_type<optionals::Reading, optionals::ReadingView, optionals::AnyMessage>(w);
  else if (t == "StructA")
    bench_type<leaderboard::StructA, leaderboard::StructAView, leaderboard::AnyMessage>(w);
  else if (t == "Mesh")
    bench_type<leaderboard::Mesh, leaderboard::MeshView, leaderboard::AnyMessage>(w);
  else if (t == "Logs")
    bench_type<leaderboard::Logs, leaderboard::LogsView, leaderboard::AnyMessage>(w);
  else
    bench_gap("sdp", w->name, "no generated type for this workload");
}
