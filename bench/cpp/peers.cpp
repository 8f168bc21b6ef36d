#include "peers.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <flatbuffers/flatbuffers.h>
#include <google/protobuf/util/json_util.h>
#include <kj/io.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bench.capnp.h"
#include "bench.pb.h"
#include "bench_generated.h"
#include "run.h"

namespace {

namespace pb = sdpbench;

// ---- protobuf values -> FlatBuffers object API ------------------------------

void fill(const pb::AllPrimitives& m, fb::AllPrimitivesT& o) {
  o.flag = m.flag();
  o.u8_val = static_cast<uint8_t>(m.u8_val());
  o.u16_val = static_cast<uint16_t>(m.u16_val());
  o.u32_val = m.u32_val();
  o.u64_val = m.u64_val();
  o.i8_val = static_cast<int8_t>(m.i8_val());
  o.i16_val = static_cast<int16_t>(m.i16_val());
  o.i32_val = m.i32_val();
  o.i64_val = m.i64_val();
  o.f32_val = m.f32_val();
  o.f64_val = m.f64_val();
  o.label = m.label();
}
void fill(const pb::U32Array& m, fb::U32ArrayT& o) { o.values.assign(m.values().begin(), m.values().end()); }
void fill(const pb::I16Array& m, fb::I16ArrayT& o) { o.samples.assign(m.samples().begin(), m.samples().end()); }
void fill(const pb::F32Array& m, fb::F32ArrayT& o) { o.values.assign(m.values().begin(), m.values().end()); }
void fill(const pb::ByteArray& m, fb::ByteArrayT& o) { o.data.assign(m.data().begin(), m.data().end()); }
void fill(const pb::SmallArrays& m, fb::SmallArraysT& o) {
  o.bytes.assign(m.bytes().begin(), m.bytes().end());
  o.words.assign(m.words().begin(), m.words().end());
  o.reals.assign(m.reals().begin(), m.reals().end());
  o.names.assign(m.names().begin(), m.names().end());
  o.flags.assign(m.flags().begin(), m.flags().end());
}
fb::Point point(const pb::Point& p) { return fb::Point(p.x(), p.y()); }
void fill(const pb::Scene& m, fb::SceneT& o) {
  o.name = m.name();
  for (const auto& r : m.rects()) o.rects.emplace_back(point(r.top_left()), point(r.bottom_right()), r.color());
  o.origin.reset(new fb::Point(point(m.origin())));
}
void fill(const pb::AudioDevice& m, fb::AudioDeviceT& o) {
  o.id = m.id();
  o.name = m.name();
  o.kind = static_cast<fb::DeviceKind>(m.kind());
  o.sample_rate = m.sample_rate();
  o.channels = static_cast<uint16_t>(m.channels());
  for (const auto& p : m.plugins()) {
    auto t = std::make_unique<fb::DevicePluginT>();
    t->name = p.name();
    t->bypassed = p.bypassed();
    for (const auto& q : p.parameters()) {
      auto u = std::make_unique<fb::DeviceParameterT>();
      u->id = q.id();
      u->name = q.name();
      u->value = q.value();
      t->parameters.push_back(std::move(u));
    }
    o.plugins.push_back(std::move(t));
  }
}
void fill(const pb::PluginRegistry& m, fb::PluginRegistryT& o) {
  for (const auto& p : m.plugins()) {
    auto t = std::make_unique<fb::PluginT>();
    t->name = p.name();
    t->manufacturer_id = p.manufacturer_id();
    t->component_type = p.component_type();
    t->component_subtype = p.component_subtype();
    for (const auto& q : p.parameters()) {
      auto u = std::make_unique<fb::ParameterT>();
      u->address = q.address();
      u->display_name = q.display_name();
      u->identifier = q.identifier();
      u->unit = q.unit();
      u->min_value = q.min_value();
      u->max_value = q.max_value();
      u->default_value = q.default_value();
      u->current_value = q.current_value();
      u->raw_flags = q.raw_flags();
      u->is_writable = q.is_writable();
      u->can_ramp = q.can_ramp();
      t->parameters.push_back(std::move(u));
    }
    o.plugins.push_back(std::move(t));
  }
  o.total_plugin_count = m.total_plugin_count();
  o.total_parameter_count = m.total_parameter_count();
}
void fill(const pb::Reading& m, fb::ReadingT& o) {
  o.sensor_id = m.sensor_id();
  o.value = m.value();
  if (m.has_calibration()) o.calibration = m.calibration();
  if (m.has_note()) o.note = m.note();
}
void fill(const pb::StructA& m, fb::StructAT& o) {
  o.name = m.name();
  o.birth_day = m.birth_day();
  o.phone = m.phone();
  o.siblings = m.siblings();
  o.spouse = m.spouse();
  o.money = m.money();
}
fb::Vector3 vector3(const pb::Vector3& v) { return fb::Vector3(v.x(), v.y(), v.z()); }
void fill(const pb::Mesh& m, fb::MeshT& o) {
  o.triangles.reserve(m.triangles_size());
  for (const auto& t : m.triangles())
    o.triangles.emplace_back(vector3(t.v0()), vector3(t.v1()), vector3(t.v2()), vector3(t.normal()));
}
// protobuf has no 8- or 16-bit integers: the address bytes and the status
// code travel as uint32 (as in rust_serialization_benchmark's prost schema).
void fill(const pb::Logs& m, fb::LogsT& o) {
  for (const auto& l : m.logs()) {
    auto t = std::make_unique<fb::LogT>();
    const auto& a = l.address();
    t->address.reset(new fb::Address(static_cast<uint8_t>(a.x0()), static_cast<uint8_t>(a.x1()),
                                     static_cast<uint8_t>(a.x2()), static_cast<uint8_t>(a.x3())));
    t->identity = l.identity();
    t->userid = l.userid();
    t->date = l.date();
    t->request = l.request();
    t->code = static_cast<uint16_t>(l.code());
    t->size = l.size();
    o.logs.push_back(std::move(t));
  }
}

// ---- FlatBuffers views: read every field --------------------------------------

uint64_t str(const flatbuffers::String* s) { return s ? s->size() : 0; }
// An element's bit pattern as an integer (floats without conversion), so
// that reading a numeric array is a cheap, vectorizable loop.
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
template <class V>
uint64_t sum(const V* v) {
  uint64_t t = 0;
  if (v)
    for (auto x : *v) t += bits(x);
  return t;
}
uint64_t walk(const fb::AllPrimitives* r) {
  return r->flag() + r->u8_val() + r->u16_val() + r->u32_val() + r->u64_val() + r->i8_val() + r->i16_val() +
         r->i32_val() + r->i64_val() + static_cast<uint64_t>(r->f32_val()) + static_cast<uint64_t>(r->f64_val()) +
         str(r->label());
}
uint64_t walk(const fb::U32Array* r) { return sum(r->values()); }
uint64_t walk(const fb::I16Array* r) { return sum(r->samples()); }
uint64_t walk(const fb::F32Array* r) { return sum(r->values()); }
uint64_t walk(const fb::ByteArray* r) { return sum(r->data()); }
uint64_t walk(const fb::SmallArrays* r) {
  uint64_t t = sum(r->bytes()) + sum(r->words()) + sum(r->reals()) + sum(r->flags());
  if (r->names())
    for (auto s : *r->names()) t += s->size();
  return t;
}
uint64_t walk(const fb::Scene* r) {
  uint64_t t = str(r->name());
  if (r->rects())
    for (auto x : *r->rects())
      t += static_cast<uint64_t>(x->top_left().x() + x->top_left().y() + x->bottom_right().x() + x->bottom_right().y()) +
           x->color();
  if (r->origin()) t += static_cast<uint64_t>(r->origin()->x() + r->origin()->y());
  return t;
}
uint64_t walk(const fb::AudioDevice* r) {
  uint64_t t = r->id() + str(r->name()) + r->kind() + r->sample_rate() + r->channels();
  if (r->plugins())
    for (auto p : *r->plugins()) {
      t += str(p->name()) + p->bypassed();
      if (p->parameters())
        for (auto q : *p->parameters()) t += q->id() + str(q->name()) + static_cast<uint64_t>(q->value());
    }
  return t;
}
uint64_t walk(const fb::PluginRegistry* r) {
  uint64_t t = r->total_plugin_count() + r->total_parameter_count();
  if (r->plugins())
    for (auto p : *r->plugins()) {
      t += str(p->name()) + str(p->manufacturer_id()) + str(p->component_type()) + str(p->component_subtype());
      if (p->parameters())
        for (auto q : *p->parameters())
          t += q->address() + str(q->display_name()) + str(q->identifier()) + str(q->unit()) +
               static_cast<uint64_t>(q->min_value() + q->max_value() + q->default_value() + q->current_value()) +
               q->raw_flags() + q->is_writable() + q->can_ramp();
    }
  return t;
}
uint64_t walk(const fb::Reading* r) {
  return r->sensor_id() + static_cast<uint64_t>(r->value()) +
         (r->calibration().has_value() ? static_cast<uint64_t>(*r->calibration()) : 0) + str(r->note());
}
uint64_t walk(const fb::StructA* r) {
  return str(r->name()) + bits(r->birth_day()) + str(r->phone()) + bits(r->siblings()) + r->spouse() +
         bits(r->money());
}
uint64_t walk(const fb::Vector3& v) { return bits(v.x()) + bits(v.y()) + bits(v.z()); }
uint64_t walk(const fb::Mesh* r) {
  uint64_t t = 0;
  if (r->triangles())
    for (auto x : *r->triangles()) t += walk(x->v0()) + walk(x->v1()) + walk(x->v2()) + walk(x->normal());
  return t;
}
uint64_t walk(const fb::Logs* r) {
  uint64_t t = 0;
  if (r->logs())
    for (auto l : *r->logs()) {
      if (auto a = l->address()) t += a->x0() + a->x1() + a->x2() + a->x3();
      t += str(l->identity()) + str(l->userid()) + str(l->date()) + str(l->request()) + l->code() + l->size();
    }
  return t;
}

// ---- protobuf values -> Cap'n Proto builders ---------------------------------

kj::StringPtr text(const std::string& s) { return kj::StringPtr(s.data(), s.size()); }

void build(const pb::AllPrimitives& m, cp::AllPrimitives::Builder b) {
  b.setFlag(m.flag());
  b.setU8Val(static_cast<uint8_t>(m.u8_val()));
  b.setU16Val(static_cast<uint16_t>(m.u16_val()));
  b.setU32Val(m.u32_val());
  b.setU64Val(m.u64_val());
  b.setI8Val(static_cast<int8_t>(m.i8_val()));
  b.setI16Val(static_cast<int16_t>(m.i16_val()));
  b.setI32Val(m.i32_val());
  b.setI64Val(m.i64_val());
  b.setF32Val(m.f32_val());
  b.setF64Val(m.f64_val());
  b.setLabel(text(m.label()));
}
template <class L, class R>
void copy_list(L l, const R& r) {
  unsigned i = 0;
  for (auto x : r) l.set(i++, x);
}
void build(const pb::U32Array& m, cp::U32Array::Builder b) { copy_list(b.initValues(m.values_size()), m.values()); }
void build(const pb::I16Array& m, cp::I16Array::Builder b) {
  auto l = b.initSamples(m.samples_size());
  unsigned i = 0;
  for (auto x : m.samples()) l.set(i++, static_cast<int16_t>(x));
}
void build(const pb::F32Array& m, cp::F32Array::Builder b) { copy_list(b.initValues(m.values_size()), m.values()); }
kj::ArrayPtr<const kj::byte> data(const std::string& s) {
  return kj::arrayPtr(reinterpret_cast<const kj::byte*>(s.data()), s.size());
}
void build(const pb::ByteArray& m, cp::ByteArray::Builder b) { b.setData(data(m.data())); }
void build(const pb::SmallArrays& m, cp::SmallArrays::Builder b) {
  b.setBytes(data(m.bytes()));
  copy_list(b.initWords(m.words_size()), m.words());
  copy_list(b.initReals(m.reals_size()), m.reals());
  auto n = b.initNames(m.names_size());
  for (int i = 0; i < m.names_size(); i++) n.set(i, text(m.names(i)));
  copy_list(b.initFlags(m.flags_size()), m.flags());
}
void build(const pb::Point& m, cp::Point::Builder b) {
  b.setX(m.x());
  b.setY(m.y());
}
void build(const pb::Scene& m, cp::Scene::Builder b) {
  b.setName(text(m.name()));
  auto l = b.initRects(m.rects_size());
  for (int i = 0; i < m.rects_size(); i++) {
    const auto& r = m.rects(i);
    build(r.top_left(), l[i].initTopLeft());
    build(r.bottom_right(), l[i].initBottomRight());
    l[i].setColor(r.color());
  }
  build(m.origin(), b.initOrigin());
}
void build(const pb::AudioDevice& m, cp::AudioDevice::Builder b) {
  b.setId(m.id());
  b.setName(text(m.name()));
  b.setKind(static_cast<cp::DeviceKind>(m.kind()));
  b.setSampleRate(m.sample_rate());
  b.setChannels(static_cast<uint16_t>(m.channels()));
  auto pl = b.initPlugins(m.plugins_size());
  for (int i = 0; i < m.plugins_size(); i++) {
    const auto& p = m.plugins(i);
    pl[i].setName(text(p.name()));
    pl[i].setBypassed(p.bypassed());
    auto ql = pl[i].initParameters(p.parameters_size());
    for (int j = 0; j < p.parameters_size(); j++) {
      const auto& q = p.parameters(j);
      ql[j].setId(q.id());
      ql[j].setName(text(q.name()));
      ql[j].setValue(q.value());
    }
  }
}
void build(const pb::PluginRegistry& m, cp::PluginRegistry::Builder b) {
  auto pl = b.initPlugins(m.plugins_size());
  for (int i = 0; i < m.plugins_size(); i++) {
    const auto& p = m.plugins(i);
    auto o = pl[i];
    o.setName(text(p.name()));
    o.setManufacturerId(text(p.manufacturer_id()));
    o.setComponentType(text(p.component_type()));
    o.setComponentSubtype(text(p.component_subtype()));
    auto ql = o.initParameters(p.parameters_size());
    for (int j = 0; j < p.parameters_size(); j++) {
      const auto& q = p.parameters(j);
      auto u = ql[j];
      u.setAddress(q.address());
      u.setDisplayName(text(q.display_name()));
      u.setIdentifier(text(q.identifier()));
      u.setUnit(text(q.unit()));
      u.setMinValue(q.min_value());
      u.setMaxValue(q.max_value());
      u.setDefaultValue(q.default_value());
      u.setCurrentValue(q.current_value());
      u.setRawFlags(q.raw_flags());
      u.setIsWritable(q.is_writable());
      u.setCanRamp(q.can_ramp());
    }
  }
  b.setTotalPluginCount(m.total_plugin_count());
  b.setTotalParameterCount(m.total_parameter_count());
}
void build(const pb::Reading& m, cp::Reading::Builder b) {
  b.setSensorId(m.sensor_id());
  b.setValue(m.value());
  if (m.has_calibration())
    b.getCalibration().setCalibrationValue(m.calibration());
  else
    b.getCalibration().setNoCalibration();
  if (m.has_note())
    b.getNote().setNoteValue(text(m.note()));
  else
    b.getNote().setNoNote();
}
void build(const pb::StructA& m, cp::StructA::Builder b) {
  b.setName(text(m.name()));
  b.setBirthDay(m.birth_day());
  b.setPhone(text(m.phone()));
  b.setSiblings(m.siblings());
  b.setSpouse(m.spouse());
  b.setMoney(m.money());
}
void build(const pb::Vector3& m, cp::Vector3::Builder b) {
  b.setX(m.x());
  b.setY(m.y());
  b.setZ(m.z());
}
void build(const pb::Mesh& m, cp::Mesh::Builder b) {
  auto l = b.initTriangles(m.triangles_size());
  for (int i = 0; i < m.triangles_size(); i++) {
    const auto& t = m.triangles(i);
    build(t.v0(), l[i].initV0());
    build(t.v1(), l[i].initV1());
    build(t.v2(), l[i].initV2());
    build(t.normal(), l[i].initNormal());
  }
}
void build(const pb::Logs& m, cp::Logs::Builder b) {
  auto l = b.initLogs(m.logs_size());
  for (int i = 0; i < m.logs_size(); i++) {
    const auto& g = m.logs(i);
    auto o = l[i];
    auto a = o.initAddress();
    a.setX0(static_cast<uint8_t>(g.address().x0()));
    a.setX1(static_cast<uint8_t>(g.address().x1()));
    a.setX2(static_cast<uint8_t>(g.address().x2()));
    a.setX3(static_cast<uint8_t>(g.address().x3()));
    o.setIdentity(text(g.identity()));
    o.setUserid(text(g.userid()));
    o.setDate(text(g.date()));
    o.setRequest(text(g.request()));
    o.setCode(static_cast<uint16_t>(g.code()));
    o.setSize(g.size());
  }
}

// ---- Cap'n Proto readers: read every field ------------------------------------

template <class L>
uint64_t lsum(L l) {
  uint64_t t = 0;
  for (auto x : l) t += bits(x);
  return t;
}
uint64_t walk(cp::AllPrimitives::Reader r) {
  return r.getFlag() + r.getU8Val() + r.getU16Val() + r.getU32Val() + r.getU64Val() + r.getI8Val() +
         r.getI16Val() + r.getI32Val() + r.getI64Val() + static_cast<uint64_t>(r.getF32Val()) +
         static_cast<uint64_t>(r.getF64Val()) + r.getLabel().size();
}
uint64_t walk(cp::U32Array::Reader r) { return lsum(r.getValues()); }
uint64_t walk(cp::I16Array::Reader r) { return lsum(r.getSamples()); }
uint64_t walk(cp::F32Array::Reader r) { return lsum(r.getValues()); }
uint64_t walk(cp::ByteArray::Reader r) { return lsum(r.getData()); }
uint64_t walk(cp::SmallArrays::Reader r) {
  uint64_t t = lsum(r.getBytes()) + lsum(r.getWords()) + lsum(r.getReals()) + lsum(r.getFlags());
  for (auto s : r.getNames()) t += s.size();
  return t;
}
uint64_t walk(cp::Point::Reader p) { return static_cast<uint64_t>(p.getX() + p.getY()); }
uint64_t walk(cp::Scene::Reader r) {
  uint64_t t = r.getName().size() + walk(r.getOrigin());
  for (auto x : r.getRects()) t += walk(x.getTopLeft()) + walk(x.getBottomRight()) + x.getColor();
  return t;
}
uint64_t walk(cp::AudioDevice::Reader r) {
  uint64_t t = r.getId() + r.getName().size() + static_cast<uint64_t>(r.getKind()) + r.getSampleRate() + r.getChannels();
  for (auto p : r.getPlugins()) {
    t += p.getName().size() + p.getBypassed();
    for (auto q : p.getParameters()) t += q.getId() + q.getName().size() + static_cast<uint64_t>(q.getValue());
  }
  return t;
}
uint64_t walk(cp::PluginRegistry::Reader r) {
  uint64_t t = r.getTotalPluginCount() + r.getTotalParameterCount();
  for (auto p : r.getPlugins()) {
    t += p.getName().size() + p.getManufacturerId().size() + p.getComponentType().size() +
         p.getComponentSubtype().size();
    for (auto q : p.getParameters())
      t += q.getAddress() + q.getDisplayName().size() + q.getIdentifier().size() + q.getUnit().size() +
           static_cast<uint64_t>(q.getMinValue() + q.getMaxValue() + q.getDefaultValue() + q.getCurrentValue()) +
           q.getRawFlags() + q.getIsWritable() + q.getCanRamp();
  }
  return t;
}
uint64_t walk(cp::Reading::Reader r) {
  uint64_t t = r.getSensorId() + static_cast<uint64_t>(r.getValue());
  auto c = r.getCalibration();
  if (c.isCalibrationValue()) t += static_cast<uint64_t>(c.getCalibrationValue());
  auto n = r.getNote();
  if (n.isNoteValue()) t += n.getNoteValue().size();
  return t;
}
uint64_t walk(cp::StructA::Reader r) {
  return r.getName().size() + bits(r.getBirthDay()) + r.getPhone().size() + bits(r.getSiblings()) + r.getSpouse() +
         bits(r.getMoney());
}
uint64_t walk(cp::Vector3::Reader v) { return bits(v.getX()) + bits(v.getY()) + bits(v.getZ()); }
uint64_t walk(cp::Mesh::Reader r) {
  uint64_t t = 0;
  for (auto x : r.getTriangles()) t += walk(x.getV0()) + walk(x.getV1()) + walk(x.getV2()) + walk(x.getNormal());
  return t;
}
uint64_t walk(cp::Logs::Reader r) {
  uint64_t t = 0;
  for (auto l : r.getLogs()) {
    auto a = l.getAddress();
    t += a.getX0() + a.getX1() + a.getX2() + a.getX3() + l.getIdentity().size() + l.getUserid().size() +
         l.getDate().size() + l.getRequest().size() + l.getCode() + l.getSize();
  }
  return t;
}

// ---- the benchmarks ------------------------------------------------------------

template <class PB>
void bench_protobuf(bench_workload* w, const PB& m) {
  std::string enc = m.SerializeAsString();
  PB back;
  if (!back.ParseFromString(enc) || back.SerializeAsString() != enc) {
    bench_gap("protobuf", w->name, "self-check failed: decode(encode(x)) differs");
    return;
  }
  std::string reused;
  run("protobuf", w->name, "encode", enc.size(), [&] {
    std::string s;
    m.SerializeToString(&s);
    bench_sink += s.size();
  });
  run("protobuf", w->name, "encode_reuse", enc.size(), [&] {
    m.SerializeToString(&reused);  // keeps the string's capacity
    bench_sink += reused.size();
  });
  run("protobuf", w->name, "decode", enc.size(), [&] {
    PB v;
    v.ParseFromArray(enc.data(), static_cast<int>(enc.size()));
    BENCH_ESCAPE(&v);
  });
  // Parsing into a cleared message reuses its storage (repeated fields,
  // sub-messages and strings keep their allocations).
  PB reused_msg;
  run("protobuf", w->name, "decode_reuse", enc.size(), [&] {
    reused_msg.Clear();
    reused_msg.ParseFromArray(enc.data(), static_cast<int>(enc.size()));
    BENCH_ESCAPE(&reused_msg);
  });
  run("protobuf", w->name, "roundtrip", enc.size(), [&] {
    std::string s;
    m.SerializeToString(&s);
    PB v;
    v.ParseFromArray(s.data(), static_cast<int>(s.size()));
    BENCH_ESCAPE(&v);
  });
}

template <class FB, class PB>
void bench_flatbuffers(bench_workload* w, const PB& m) {
  typename FB::NativeTableType obj;
  fill(m, obj);
  flatbuffers::FlatBufferBuilder first;
  first.Finish(FB::Pack(first, &obj));
  std::vector<uint8_t> enc(first.GetBufferPointer(), first.GetBufferPointer() + first.GetSize());
  {
    flatbuffers::Verifier v(enc.data(), enc.size());
    if (!v.VerifyBuffer<FB>(nullptr)) {
      bench_gap("flatbuffers", w->name, "self-check failed: the buffer does not verify");
      return;
    }
  }
  flatbuffers::FlatBufferBuilder reused;
  size_t n = enc.size();
  run("flatbuffers", w->name, "encode", n, [&] {
    flatbuffers::FlatBufferBuilder b;
    b.Finish(FB::Pack(b, &obj));
    bench_sink += b.GetSize();
  });
  run("flatbuffers", w->name, "encode_reuse", n, [&] {
    reused.Clear();
    reused.Finish(FB::Pack(reused, &obj));
    bench_sink += reused.GetSize();
  });
  run("flatbuffers", w->name, "decode", n, [&] {
    flatbuffers::Verifier v(enc.data(), enc.size());
    if (!v.VerifyBuffer<FB>(nullptr)) abort();
    typename FB::NativeTableType out;
    flatbuffers::GetRoot<FB>(enc.data())->UnPackTo(&out);
    BENCH_ESCAPE(&out);
  });
  run("flatbuffers", w->name, "decode_view", n, [&] {
    flatbuffers::Verifier v(enc.data(), enc.size());
    if (!v.VerifyBuffer<FB>(nullptr)) abort();
    bench_sink += walk(flatbuffers::GetRoot<FB>(enc.data()));
  });
  run("flatbuffers", w->name, "roundtrip", n, [&] {
    flatbuffers::FlatBufferBuilder b;
    b.Finish(FB::Pack(b, &obj));
    flatbuffers::Verifier v(b.GetBufferPointer(), b.GetSize());
    if (!v.VerifyBuffer<FB>(nullptr)) abort();
    typename FB::NativeTableType out;
    flatbuffers::GetRoot<FB>(b.GetBufferPointer())->UnPackTo(&out);
    BENCH_ESCAPE(&out);
  });
}

template <class CP, class PB>
void bench_capnp(bench_workload* w, const PB& m) {
  capnp::MallocMessageBuilder first;
  build(m, first.initRoot<CP>());
  kj::Array<capnp::word> enc = capnp::messageToFlatArray(first);
  size_t n = enc.size() * sizeof(capnp::word);
  capnp::ReaderOptions opts;
  opts.traversalLimitInWords = 1ull << 40;
  std::vector<capnp::word> scratch(enc.size() + 64), out(enc.size() + 16);
  run("capnp", w->name, "encode", n, [&] {
    capnp::MallocMessageBuilder b;
    build(m, b.initRoot<CP>());
    auto a = capnp::messageToFlatArray(b);
    bench_sink += a.size();
  });
  run("capnp", w->name, "encode_reuse", n, [&] {
    std::memset(scratch.data(), 0, scratch.size() * sizeof(capnp::word));  // capnp requires a zeroed first segment
    capnp::MallocMessageBuilder b(kj::arrayPtr(scratch.data(), scratch.size()));
    build(m, b.initRoot<CP>());
    kj::ArrayOutputStream os(kj::arrayPtr(reinterpret_cast<kj::byte*>(out.data()), out.size() * sizeof(capnp::word)));
    capnp::writeMessage(os, b);
    bench_sink += os.getArray().size();
  });
  run("capnp", w->name, "decode_view", n, [&] {
    capnp::FlatArrayMessageReader r(enc, opts);
    bench_sink += walk(r.getRoot<CP>());
  });
  run("capnp", w->name, "roundtrip", n, [&] {
    capnp::MallocMessageBuilder b;
    build(m, b.initRoot<CP>());
    auto a = capnp::messageToFlatArray(b);
    capnp::FlatArrayMessageReader r(a, opts);
    bench_sink += walk(r.getRoot<CP>());
  });
}

template <class PB, class FB, class CP>
void bench_all(bench_workload* w) {
  PB m;
  google::protobuf::util::JsonParseOptions o;
  auto st = google::protobuf::util::JsonStringToMessage(
      std::string(reinterpret_cast<const char*>(w->json), w->json_len), &m, o);
  if (!st.ok()) {
    std::string why = "cannot read the JSON document: " + st.ToString();
    bench_gap("protobuf", w->name, why.c_str());
    bench_gap("flatbuffers", w->name, why.c_str());
    bench_gap("capnp", w->name, why.c_str());
    return;
  }
  bench_protobuf(w, m);
  bench_flatbuffers<FB>(w, m);
  bench_capnp<CP>(w, m);
}

}  // namespace

void bench_peers(bench_workload* w) {
  std::string t = w->type;
  if (t == "AllPrimitives") bench_all<pb::AllPrimitives, fb::AllPrimitives, cp::AllPrimitives>(w);
  else if (t == "U32Array") bench_all<pb::U32Array, fb::U32Array, cp::U32Array>(w);
  else if (t == "I16Array") bench_all<pb::I16Array, fb::I16Array, cp::I16Array>(w);
  else if (t == "F32Array") bench_all<pb::F32Array, fb::F32Array, cp::F32Array>(w);
  else if (t == "ByteArray") bench_all<pb::ByteArray, fb::ByteArray, cp::ByteArray>(w);
  else if (t == "SmallArrays") bench_all<pb::SmallArrays, fb::SmallArrays, cp::SmallArrays>(w);
  else if (t == "Scene") bench_all<pb::Scene, fb::Scene, cp::Scene>(w);
  else if (t == "AudioDevice") bench_all<pb::AudioDevice, fb::AudioDevice, cp::AudioDevice>(w);
  else if (t == "PluginRegistry") bench_all<pb::PluginRegistry, fb::PluginRegistry, cp::PluginRegistry>(w);
  else if (t == "Reading") bench_all<pb::Reading, fb::Reading, cp::Reading>(w);
  else if (t == "StructA") bench_all<pb::StructA, fb::StructA, cp::StructA>(w);
  else if (t == "Mesh") bench_all<pb::Mesh, fb::Mesh, cp::Mesh>(w);
  else if (t == "Logs") bench_all<pb::Logs, fb::Logs, cp::Logs>(w);
  else bench_gap("protobuf", w->name, "no peer schema for this type");
}
