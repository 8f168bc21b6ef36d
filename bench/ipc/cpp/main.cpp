// The C++ side of the IPC workload (bench/ipc): the SDP C++ writer and
// reader and the length-delimited protobuf writer.
//
//   ipc-cpp write|read|pb-write KIND N DATA
//
// The writer is the generated MessageWriter (docs/api.md, "Streams") over a
// sink that copies each message into a 64 KiB buffer and write(2)s it when
// full (a message larger than the buffer goes straight out). The reader is
// the generated MessageReader over a 64 KiB buffered read(2) source,
// decoding into one AnyMessage (C++'s read always decodes into an existing
// message, reusing its storage). Protobuf: SerializeDelimitedToZeroCopyStream
// into a FileOutputStream with a 64 KiB block.
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "arrays.hpp"
#include "bench.pb.h"
#include "ipc.pb.h"
#include "ipc.hpp"
#include "leaderboard.hpp"

namespace {

constexpr std::size_t kBuf = 64 << 10;

int64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "ipc-cpp: %s\n", msg.c_str());
  std::exit(1);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) die("cannot read " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void write_all(const uint8_t* p, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(1, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      die(std::string("write: ") + std::strerror(errno));
    }
    p += w;
    n -= std::size_t(w);
  }
}

void start() { std::fprintf(stderr, "ipc-start %" PRId64 "\n", mono_ns()); }

// The checksums of bench/ipc/go/src/sdpipc/peers.go.
uint64_t f32(float v) { uint32_t u; std::memcpy(&u, &v, 4); return u; }
uint64_t f64(double v) { uint64_t u; std::memcpy(&u, &v, 8); return u; }
uint64_t str_sum(const std::string& s) {
  uint64_t r = s.size();
  for (unsigned char c : s) r += c;
  return r;
}
uint64_t checksum(const leaderboard::StructA& m) {
  return str_sum(m.name) + uint64_t(m.birth_day) + str_sum(m.phone) + uint64_t(int64_t(m.siblings)) + f64(m.money) +
         (m.spouse ? 1 : 0);
}
// Every 64th sample and the last, as the Go reader's sumI16.
uint64_t checksum(const arrays::I16Array& m) {
  const auto& v = m.samples;
  uint64_t s = v.size();
  for (std::size_t i = 0; i < v.size(); i += 64) s += uint64_t(int64_t(v[i]));
  if (!v.empty()) s += uint64_t(int64_t(v.back()));
  return s;
}
uint64_t checksum(const ipc::SensorFrame& m) {
  uint64_t s = m.seq + uint64_t(m.timestamp_ns) + uint64_t(m.received_ns) + m.device_id + m.sensor_id + m.status +
               m.flags + m.quality + m.error_count;
  s += f32(m.accel_x) + f32(m.accel_y) + f32(m.accel_z) + f32(m.gyro_x) + f32(m.gyro_y) + f32(m.gyro_z) +
       f32(m.mag_x) + f32(m.mag_y) + f32(m.mag_z) + f32(m.temperature) + f32(m.humidity);
  s += f64(m.pressure) + f64(m.altitude) + f64(m.latitude) + f64(m.longitude);
  s += f32(m.speed) + f32(m.heading) + f32(m.battery_v) + f32(m.rssi) + f32(m.snr);
  return s + str_sum(m.label);
}

template <class T>
T load(const std::string& path) {
  auto b = read_file(path);
  T v;
  auto st = decode(b.data(), b.size(), v);
  if (!st) die("cannot decode " + path);
  return v;
}

// A 64 KiB buffered write(2) sink for the MessageWriter.
struct Sink {
  std::vector<uint8_t>* buf;
  std::size_t* used;
  bool operator()(const uint8_t* p, std::size_t n) const {
    if (n > buf->size() - *used) {
      write_all(buf->data(), *used);
      *used = 0;
    }
    if (n > buf->size()) {
      write_all(p, n);
      return true;
    }
    std::memcpy(buf->data() + *used, p, n);
    *used += n;
    return true;
  }
};

template <class Writer, class T>
void write_sdp(const T& v, long n) {
  std::vector<uint8_t> buf(kBuf);
  std::size_t used = 0;
  Writer w(Sink{&buf, &used});
  start();
  for (long i = 0; i < n; i++) {
    if (!w.write(v)) die("write: " + w.status().to_string());
  }
  write_all(buf.data(), used);
}

// A 64 KiB buffered read(2) source for the MessageReader.
struct Source {
  std::vector<uint8_t>* buf;
  std::size_t* pos;
  std::size_t* len;
  std::size_t operator()(uint8_t* out, std::size_t want) const {
    std::size_t got = 0;
    while (got < want) {
      if (*pos == *len) {
        if (want - got >= buf->size()) {  // large reads bypass the buffer
          ssize_t r = ::read(0, out + got, want - got);
          if (r < 0 && errno == EINTR) continue;
          if (r < 0) die(std::string("read: ") + std::strerror(errno));
          if (r == 0) return got;
          got += std::size_t(r);
          continue;
        }
        ssize_t r = ::read(0, buf->data(), buf->size());
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) die(std::string("read: ") + std::strerror(errno));
        if (r == 0) return got;
        *pos = 0;
        *len = std::size_t(r);
      }
      std::size_t k = std::min(want - got, *len - *pos);
      std::memcpy(out + got, buf->data() + *pos, k);
      *pos += k;
      got += k;
    }
    return got;
  }
};

template <class NS_Any, class T, class Reader>
void read_sdp(Reader& reader) {
  NS_Any m;
  long count = 0;
  uint64_t sum = 0;
  while (reader.read(m)) {
    const T* v = std::get_if<T>(&m);
    if (!v) die("message " + std::to_string(count) + " has another type");
    sum += checksum(*v);
    count++;
  }
  if (!reader.status()) die("stream error at message " + std::to_string(reader.index()));
  std::printf("ipc-end %" PRId64 " %ld %" PRIu64 " %zu\n", mono_ns(), count, sum, reader.bytes_read());
}

void pb_write(const google::protobuf::Message& m, long n) {
  google::protobuf::io::FileOutputStream out(1, int(kBuf));
  start();
  for (long i = 0; i < n; i++) {
    if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(m, &out)) die("protobuf write failed");
  }
  if (!out.Flush()) die("protobuf flush failed");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) die("usage: ipc-cpp write|read|pb-write KIND N DATA");
  std::string mode = argv[1], kind = argv[2], data = argv[4];
  long n = std::atol(argv[3]);
  std::string path = data + "/" + kind + ".sdpb";
  if (mode == "write") {
    if (kind == "struct_a") write_sdp<leaderboard::MessageWriter<Sink>>(load<leaderboard::StructA>(path), n);
    else if (kind == "sensor") write_sdp<ipc::MessageWriter<Sink>>(load<ipc::SensorFrame>(path), n);
    else if (kind == "i16_48k") write_sdp<arrays::MessageWriter<Sink>>(load<arrays::I16Array>(path), n);
    else die("unknown kind " + kind);
  } else if (mode == "read") {
    std::vector<uint8_t> buf(kBuf);
    std::size_t pos = 0, len = 0;
    Source src{&buf, &pos, &len};
    if (kind == "struct_a") {
      leaderboard::MessageReader<Source> r(src);
      read_sdp<leaderboard::AnyMessage, leaderboard::StructA>(r);
    } else if (kind == "sensor") {
      ipc::MessageReader<Source> r(src);
      read_sdp<ipc::AnyMessage, ipc::SensorFrame>(r);
    } else if (kind == "i16_48k") {
      arrays::MessageReader<Source> r(src);
      read_sdp<arrays::AnyMessage, arrays::I16Array>(r);
    } else die("unknown kind " + kind);
  } else if (mode == "pb-write") {
    if (kind == "struct_a") {
      auto v = load<leaderboard::StructA>(path);
      sdpbench::StructA m;
      m.set_name(v.name);
      m.set_birth_day(v.birth_day);
      m.set_phone(v.phone);
      m.set_siblings(v.siblings);
      m.set_spouse(v.spouse);
      m.set_money(v.money);
      pb_write(m, n);
    } else if (kind == "i16_48k") {
      auto v = load<arrays::I16Array>(path);
      sdpbench::I16Array m;
      for (int16_t s : v.samples) m.add_samples(s);
      pb_write(m, n);
    } else if (kind == "sensor") {
      auto v = load<ipc::SensorFrame>(path);
      sdpipc::SensorFrame m;
      m.set_seq(v.seq);
      m.set_timestamp_ns(v.timestamp_ns);
      m.set_received_ns(v.received_ns);
      m.set_device_id(v.device_id);
      m.set_sensor_id(v.sensor_id);
      m.set_status(v.status);
      m.set_flags(v.flags);
      m.set_quality(v.quality);
      m.set_error_count(v.error_count);
      m.set_accel_x(v.accel_x);
      m.set_accel_y(v.accel_y);
      m.set_accel_z(v.accel_z);
      m.set_gyro_x(v.gyro_x);
      m.set_gyro_y(v.gyro_y);
      m.set_gyro_z(v.gyro_z);
      m.set_mag_x(v.mag_x);
      m.set_mag_y(v.mag_y);
      m.set_mag_z(v.mag_z);
      m.set_temperature(v.temperature);
      m.set_humidity(v.humidity);
      m.set_pressure(v.pressure);
      m.set_altitude(v.altitude);
      m.set_latitude(v.latitude);
      m.set_longitude(v.longitude);
      m.set_speed(v.speed);
      m.set_heading(v.heading);
      m.set_battery_v(v.battery_v);
      m.set_rssi(v.rssi);
      m.set_snr(v.snr);
      m.set_label(v.label);
      pb_write(m, n);
    } else die("no protobuf message for kind " + kind);
  } else {
    die("unknown mode " + mode);
  }
  return 0;
}
