// Floors for the C++ backend's targets: what the tightest hand-written code
// costs on the same data, next to the generated code. Not part of the
// benchmark harness (build.sh does not build it); it backs the figures in
// docs/cpp.md. Build after `bench/run --langs cpp` has generated the code
// and the data:
//
//   B=bench/build
//   g++ -O2 -std=c++17 -I$B/cpp/sdp/plugins -I$B/cpp/sdp/arrays -I$B/cpp/sdp/leaderboard bench/cpp/floors.cpp
//       $B/cpp/sdp/plugins/plugins.cpp $B/cpp/sdp/arrays/arrays.cpp $B/cpp/sdp/leaderboard/leaderboard.cpp -o /tmp/floors
//   /tmp/floors bench/build/data
//
// Every figure is the fastest of 30 batches (CPU noise only ever adds time).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "leaderboard.hpp"
#include "plugins.hpp"

namespace {

std::vector<std::uint8_t> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class F>
double best_ns(F f, int n) {
  double best = 1e300;
  for (int r = 0; r < 30; r++) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) f();
    const double dt = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / n;
    if (dt < best) best = dt;
  }
  return best;
}

void escape(const void* p) { __asm__ volatile("" : : "r"(p) : "memory"); }

std::uint32_t ld32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t ld64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Reads every field of the registry's bytes, as the harness's view walk
// does, trusting the input completely (no bounds, UTF-8 or bool checks):
// a lower bound for any view that validates and then reads every field.
__attribute__((noinline)) std::uint64_t walk_floor(const std::uint8_t* p) {
  std::uint64_t t = 0;
  const std::uint32_t np = ld32(p);
  p += 4;
  for (std::uint32_t i = 0; i < np; i++) {
    for (int k = 0; k < 4; k++) {
      const std::uint32_t n = ld32(p);
      t += n;
      p += 4 + n;
    }
    const std::uint32_t nq = ld32(p);
    p += 4;
    for (std::uint32_t j = 0; j < nq; j++) {
      t += ld64(p);
      p += 8;
      for (int k = 0; k < 3; k++) {
        const std::uint32_t n = ld32(p);
        t += n;
        p += 4 + n;
      }
      t += std::uint64_t{ld32(p)} + ld32(p + 4) + ld32(p + 8) + ld32(p + 12) + ld32(p + 16) + p[20] + p[21];
      p += 22;
    }
  }
  return t + ld32(p) + ld32(p + 4);
}

// Writes the registry with the fewest instructions: no size pass, every
// string of up to 16 bytes copied with one unconditional 16-byte move. Only
// valid for this data and a buffer with slack: a lower bound, not an
// encoder.
__attribute__((noinline)) std::size_t write_floor(const plugins::PluginRegistry& r, std::uint8_t* out) {
  std::uint8_t* p = out;
  auto str = [&](const std::string& s) {
    const std::uint32_t n = static_cast<std::uint32_t>(s.size());
    std::memcpy(p, &n, 4);
    p += 4;
    if (n <= 16) {
      std::memcpy(p, s.data(), 16);
    } else {
      std::memcpy(p, s.data(), n);
    }
    p += n;
  };
  const std::uint32_t np = static_cast<std::uint32_t>(r.plugins.size());
  std::memcpy(p, &np, 4);
  p += 4;
  for (const auto& pl : r.plugins) {
    str(pl.name);
    str(pl.manufacturer_id);
    str(pl.component_type);
    str(pl.component_subtype);
    const std::uint32_t nq = static_cast<std::uint32_t>(pl.parameters.size());
    std::memcpy(p, &nq, 4);
    p += 4;
    for (const auto& q : pl.parameters) {
      std::memcpy(p, &q.address, 8);
      p += 8;
      str(q.display_name);
      str(q.identifier);
      str(q.unit);
      std::memcpy(p, &q.min_value, 20);
      p[20] = q.is_writable;
      p[21] = q.can_ramp;
      p += 22;
    }
  }
  std::memcpy(p, &r.total_plugin_count, 4);
  std::memcpy(p + 4, &r.total_parameter_count, 4);
  return static_cast<std::size_t>(p + 8 - out);
}

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The harness's view walk (bench/cpp/sdp_cpp.cpp).
std::uint64_t walk(const plugins::PluginRegistryView& r) {
  std::uint64_t t = r.total_plugin_count + r.total_parameter_count;
  for (const auto& p : r.plugins) {
    t += p.name.size() + p.manufacturer_id.size() + p.component_type.size() + p.component_subtype.size();
    for (const auto& q : p.parameters) {
      t += q.address + q.display_name.size() + q.identifier.size() + q.unit.size() + bits(q.min_value) +
           bits(q.max_value) + bits(q.default_value) + bits(q.current_value) + q.raw_flags + q.is_writable + q.can_ramp;
    }
  }
  return t;
}

// The mesh's triangles are 12 f32 with no padding: on a little-endian host
// the wire bytes after the count are the std::vector<Triangle>'s memory.
static_assert(sizeof(leaderboard::Vector3) == 12 && offsetof(leaderboard::Vector3, z) == 8, "Vector3 layout");
static_assert(sizeof(leaderboard::Triangle) == 48 && offsetof(leaderboard::Triangle, normal) == 36, "Triangle layout");

// Decodes the mesh with one copy into a kept vector (the bound a bulk
// []Triangle decode could reach; decode_reuse in the harness).
__attribute__((noinline)) bool mesh_read_floor(const std::uint8_t* p, std::size_t size, leaderboard::Mesh& m) {
  if (size < 4) return false;
  const std::uint32_t n = ld32(p);
  if (size - 4 != std::size_t{n} * 48) return false;
  m.triangles.resize(n);
  std::memcpy(m.triangles.data(), p + 4, size - 4);
  return true;
}

// Encodes the mesh with one copy (the bound for encode_to).
__attribute__((noinline)) std::size_t mesh_write_floor(const leaderboard::Mesh& m, std::uint8_t* out) {
  const std::uint32_t n = static_cast<std::uint32_t>(m.triangles.size());
  std::memcpy(out, &n, 4);
  std::memcpy(out + 4, m.triangles.data(), std::size_t{n} * 48);
  return 4 + std::size_t{n} * 48;
}

// The harness's view walk (bench/cpp/sdp_cpp.cpp).
std::uint64_t walk(const leaderboard::Vector3View& v) { return bits(v.x) + bits(v.y) + bits(v.z); }
std::uint64_t walk(const leaderboard::MeshView& r) {
  std::uint64_t t = 0;
  for (const auto& x : r.triangles) t += walk(x.v0) + walk(x.v1) + walk(x.v2) + walk(x.normal);
  return t;
}

void mesh(const std::string& dir) {
  const std::vector<std::uint8_t> in = slurp(dir + "/mesh.sdpb");
  leaderboard::Mesh v, kept, floor;
  if (!leaderboard::decode(in.data(), in.size(), v) || !mesh_read_floor(in.data(), in.size(), floor) || !(floor == v)) {
    std::fprintf(stderr, "mesh_read_floor disagrees with the decoder\n");
    std::exit(1);
  }
  std::vector<std::uint8_t> buf(in.size());
  if (mesh_write_floor(v, buf.data()) != in.size() || std::memcmp(buf.data(), in.data(), in.size()) != 0) {
    std::fprintf(stderr, "mesh_write_floor does not reproduce the mesh's bytes\n");
    std::exit(1);
  }
  const double copy = best_ns([&] {
    std::memcpy(buf.data(), in.data(), in.size());
    escape(buf.data());
  }, 10);
  std::printf("mesh (%zu bytes): memcpy %.0f ns; ratios to it:\n", in.size(), copy);
  std::printf("  write floor (one copy)                    %9.2f\n",
              best_ns([&] { escape(buf.data() + mesh_write_floor(v, buf.data())); }, 10) / copy);
  std::printf("  sdp encode_to                             %9.2f\n",
              best_ns([&] { escape(buf.data() + leaderboard::encode_to(v, buf.data(), buf.size())); }, 10) / copy);
  std::printf("  sdp encode (fresh vector)                 %9.2f\n", best_ns([&] {
                std::vector<std::uint8_t> b = leaderboard::encode(v);
                escape(b.data());
              }, 10) / copy);
  std::printf("  read floor (one copy into a kept vector)  %9.2f\n", best_ns([&] {
                if (!mesh_read_floor(in.data(), in.size(), floor)) std::abort();
                escape(floor.triangles.data());
              }, 10) / copy);
  std::printf("  sdp decode into a kept value              %9.2f\n", best_ns([&] {
                if (!leaderboard::decode(in.data(), in.size(), kept)) std::abort();
                escape(kept.triangles.data());
              }, 10) / copy);
  std::printf("  sdp owned decode (fresh value)            %9.2f\n", best_ns([&] {
                leaderboard::Mesh o;
                if (!leaderboard::decode(in.data(), in.size(), o)) std::abort();
                escape(o.triangles.data());
              }, 10) / copy);
  std::printf("  sdp view decode (validation only)         %9.2f\n", best_ns([&] {
                leaderboard::MeshView o;
                if (!leaderboard::decode(in.data(), in.size(), o)) std::abort();
                escape(&o);
              }, 10) / copy);
  std::printf("  sdp view decode + walk                    %9.2f\n", best_ns([&] {
                leaderboard::MeshView o;
                if (!leaderboard::decode(in.data(), in.size(), o)) std::abort();
                escape(reinterpret_cast<const void*>(walk(o)));
              }, 10) / copy);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "bench/build/data";
  const std::vector<std::uint8_t> reg = slurp(dir + "/registry.sdpb");
  plugins::PluginRegistry v;
  if (!plugins::decode(reg.data(), reg.size(), v)) return 1;
  std::vector<std::uint8_t> buf(reg.size() + 64);
  if (write_floor(v, buf.data()) != reg.size() || std::memcmp(buf.data(), reg.data(), reg.size()) != 0) {
    std::fprintf(stderr, "write_floor does not reproduce the registry's bytes\n");
    return 1;
  }
  plugins::PluginRegistryView check;
  if (!plugins::decode(reg.data(), reg.size(), check) || walk(check) != walk_floor(reg.data())) {
    std::fprintf(stderr, "walk_floor disagrees with the view walk\n");
    return 1;
  }
  std::printf("registry (%zu bytes), ns per operation:\n", reg.size());
  std::printf("  write floor (no size pass, no zero-fill)  %9.0f\n",
              best_ns([&] { escape(buf.data() + write_floor(v, buf.data())); }, 200));
  std::printf("  sdp encode_to (size pass included)        %9.0f\n",
              best_ns([&] { escape(buf.data() + plugins::encode_to(v, buf.data(), buf.size())); }, 200));
  std::printf("  sdp encode (fresh vector)                 %9.0f\n", best_ns([&] {
                std::vector<std::uint8_t> b = plugins::encode(v);
                escape(b.data());
              }, 200));
  std::printf("  walk floor (read every field, no checks)  %9.0f\n",
              best_ns([&] { escape(reinterpret_cast<const void*>(walk_floor(reg.data()))); }, 200));
  std::printf("  sdp view decode + walk                    %9.0f\n", best_ns([&] {
                plugins::PluginRegistryView o;
                if (!plugins::decode(reg.data(), reg.size(), o)) std::abort();
                escape(reinterpret_cast<const void*>(walk(o)));
              }, 100));
  std::printf("  sdp owned decode                          %9.0f\n", best_ns([&] {
                plugins::PluginRegistry o;
                if (!plugins::decode(reg.data(), reg.size(), o)) std::abort();
                escape(&o);
              }, 50));

  for (const char* w : {"u32_100", "u32_1k"}) {
    const std::vector<std::uint8_t> in = slurp(dir + "/" + w + ".sdpb");
    arrays::U32Array a;
    if (!arrays::decode(in.data(), in.size(), a)) return 1;
    std::vector<std::uint8_t> dst(in.size());
    const double copy = best_ns([&] {
      std::memcpy(dst.data(), in.data(), in.size());
      escape(dst.data());
    }, 100000);
    const double fresh = best_ns([&] {
      std::vector<std::uint8_t> x(in.data(), in.data() + in.size());
      escape(x.data());
    }, 100000);
    const double enc = best_ns([&] {
      std::vector<std::uint8_t> x = arrays::encode(a);
      escape(x.data());
    }, 100000);
    const double dec = best_ns([&] {
      arrays::U32Array o;
      if (!arrays::decode(in.data(), in.size(), o)) std::abort();
      escape(o.values.data());
    }, 100000);
    std::printf("%s (%zu bytes): memcpy %.1f ns; a fresh std::vector of the bytes %.2fx; sdp encode %.2fx, decode %.2fx\n", w,
                in.size(), copy, fresh / copy, enc / copy, dec / copy);
  }
  mesh(dir);
  return 0;
}
