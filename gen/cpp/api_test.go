package cpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// apiProgram exercises what the conformance testee cannot see: value
// semantics (deep copies of boxes, equality), the view containers' access
// paths, custom depth limits, error details and the schema check of
// streams (encode_hello, require_hello), std::hash. It includes the headers of
// five schemas in one translation unit, which must coexist. hostile.sdp
// checks the memory limit of rule 11: the option, the default for a value
// and for a message's payload, owned and view decoders.
const apiProgram = `#include "arrays.cpp"
#include "enums_unions.cpp"
#include "hostile.cpp"
#include "plugins.cpp"
#include "recursive.cpp"

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

// Whether every encoder refuses v (issue #13: an encoder never writes bytes
// its decoder rejects).
template <class T>
bool refused(const T& v) {
    std::uint8_t buf[256];
    return enums_unions::encoded_size(v) == 0 && enums_unions::encode(v).empty() &&
           enums_unions::encode_to(v, buf, sizeof buf) == 0 && enums_unions::encoded_message_size(v) == 0 &&
           enums_unions::encode_message(v).empty() && enums_unions::encode_message_to(v, buf, sizeof buf) == 0;
}

// Encoders refuse a value holding an enum value the enum does not declare
// or a string that is not UTF-8, anywhere in it.
int refusals() {
    using namespace enums_unions;
    Enums e;
    CHECK(!encode(e).empty() && !refused(e));
    e.small = static_cast<Small>(7);
    CHECK(refused(e));
    e = Enums();
    e.sparse = static_cast<Sparse>(3);
    CHECK(refused(e));
    e = Enums();
    e.list = {Sparse::First, static_cast<Sparse>(11)};
    CHECK(refused(e));
    e = Enums();
    e.fixed[1] = static_cast<Small>(3);
    CHECK(refused(e));
    Unions u;
    CHECK(!refused(u));
    u.nested.value = Nested::Leaf{static_cast<Small>(5)};
    CHECK(refused(u));
    u = Unions();
    u.maybe = Shape{Shape::Label{"\xff"}};
    CHECK(refused(u));
    u = Unions();
    u.shapes = {Shape{Shape::Label{"ok"}}, Shape{Shape::Label{"\xed\xa0\x80"}}}; // a surrogate
    CHECK(refused(u));
    u.shapes[1] = Shape{Shape::Label{"caf\xc3\xa9"}};
    CHECK(!refused(u));
    arrays::Fixed f;
    f.names[1] = "\xc0\x80"; // an overlong form
    CHECK(arrays::encoded_size(f) == 0 && arrays::encode(f).empty());
    recursive::Node n{"a", recursive::Node{"b", recursive::Node{"\xf5", {}}}};
    CHECK(recursive::encoded_size(n) == 0 && recursive::encode(n).empty());
    return 0;
}

// Decoding into an existing value reuses its storage: the box of a
// present optional, long strings, the vectors of kept elements.
int reuse() {
    const std::string long_a(40, 'a');
    const std::string long_b(30, 'b');
    recursive::Node old{long_a, recursive::Node{long_a, recursive::Node{"c", {}}}};
    recursive::Node now{long_b, recursive::Node{long_b, {}}};
    const auto ob = recursive::encode(old);
    const auto nb = recursive::encode(now);
    recursive::Node n;
    CHECK(recursive::decode(ob.data(), ob.size(), n) && n == old);
    const char* s0 = n.value.data();
    const recursive::Node* box = n.next.get();
    const char* s1 = n.next->value.data();
    CHECK(recursive::decode(nb.data(), nb.size(), n) && n == now);
    CHECK(n.value.data() == s0 && n.next.get() == box && n.next->value.data() == s1 && !n.next->next);
    // A failed decode resets the value to its default.
    CHECK(!recursive::decode(nb.data(), nb.size() - 1, n) && n == recursive::Node());

    recursive::Tree t{1, {recursive::Tree{2, {recursive::Tree{3, {}}, recursive::Tree{4, {}}}}, recursive::Tree{5, {}}}};
    recursive::Tree u{6, {recursive::Tree{7, {recursive::Tree{8, {}}}}}};
    const auto tb = recursive::encode(t);
    const auto ub = recursive::encode(u);
    recursive::Tree tr;
    CHECK(recursive::decode(tb.data(), tb.size(), tr) && tr == t);
    const recursive::Tree* kids = tr.children.data();
    const recursive::Tree* grandkids = tr.children[0].children.data();
    CHECK(recursive::decode(ub.data(), ub.size(), tr) && tr == u);
    CHECK(tr.children.data() == kids && tr.children[0].children.data() == grandkids);

    // A union keeps the variant held when the input has the same one.
    recursive::Program add{recursive::Expr{recursive::Expr::Add{{recursive::Expr{recursive::Expr::Lit{1}},
                                                                  recursive::Expr{recursive::Expr::Lit{2}}}}}};
    recursive::Program lit{recursive::Expr{recursive::Expr::Lit{3}}};
    const auto ab = recursive::encode(add);
    const auto lb = recursive::encode(lit);
    recursive::Program pr;
    CHECK(recursive::decode(ab.data(), ab.size(), pr) && pr == add);
    const recursive::Expr* terms = std::get_if<recursive::Expr::Add>(&pr.body.value)->terms.data();
    CHECK(recursive::decode(ab.data(), ab.size(), pr) && pr == add);
    CHECK(std::get_if<recursive::Expr::Add>(&pr.body.value)->terms.data() == terms);
    CHECK(recursive::decode(lb.data(), lb.size(), pr) && pr == lit);
    CHECK(recursive::decode(ab.data(), ab.size(), pr) && pr == add);

    // The dispatcher decodes into the message held when it has the type read.
    const auto om = recursive::encode_message(old);
    recursive::AnyMessage any;
    CHECK(recursive::decode_any_message(om.data(), om.size(), any));
    const char* ms = std::get_if<recursive::Node>(&any)->value.data();
    CHECK(recursive::decode_any_message(om.data(), om.size(), any));
    CHECK(std::get_if<recursive::Node>(&any)->value.data() == ms);
    CHECK(!recursive::decode_any_message(om.data(), om.size() - 1, any) && any.index() == 0 &&
          recursive::encode_message(any) == recursive::encode_message(recursive::AnyMessage()));

    // Numeric arrays: a vector as long as the input's keeps its storage.
    arrays::F32Array fa;
    fa.values = {1.0f, 2.0f, 3.0f};
    const auto fb = arrays::encode(fa);
    arrays::F32Array fr;
    CHECK(arrays::decode(fb.data(), fb.size(), fr) && fr == fa);
    const float* fd = fr.values.data();
    CHECK(arrays::decode(fb.data(), fb.size(), fr) && fr == fa && fr.values.data() == fd);
    return 0;
}

// The decoders over contiguous ranges of bytes agree with the pointer and
// size ones: owned, view, prefix, message and any message, from a vector,
// a std::string, a std::string_view and a std::array.
int ranges() {
    recursive::Node list;
    list.value = "a";
    list.next = recursive::Node{"b", {}};
    const std::vector<std::uint8_t> bytes = recursive::encode(list);
    const std::string str(bytes.begin(), bytes.end());
    const std::string_view sv(str);
    recursive::Node out;
    CHECK(recursive::decode(bytes, out) && out == list);
    out = {};
    CHECK(recursive::decode(str, out) && out == list);
    out = {};
    CHECK(decode(sv, out) && out == list);  // found by argument-dependent lookup
    recursive::NodeView view;
    CHECK(recursive::decode(sv, view) && view.to_owned() == list);
    std::size_t consumed = 0;
    std::string longer = str + "xyz";
    CHECK(recursive::decode_prefix(longer, out, consumed) && consumed == bytes.size() && out == list);
    recursive::Status st = recursive::decode(longer, out);
    CHECK(!st && st.code() == recursive::ErrorCode::Trailing && st.offset() == bytes.size());
    recursive::DecodeOptions opts;
    opts.max_depth = 1;
    CHECK(recursive::decode(bytes, out, opts).code() == recursive::ErrorCode::Depth);
    const std::vector<std::uint8_t> msg = recursive::encode_message(list);
    std::array<std::uint8_t, 64> fixed{};
    CHECK(msg.size() <= fixed.size());
    std::memcpy(fixed.data(), msg.data(), msg.size());
    CHECK(recursive::decode_message(msg, out) && out == list);
    CHECK(recursive::decode_message(std::string_view(reinterpret_cast<const char*>(fixed.data()), msg.size()), out));
    CHECK(!recursive::decode_message(fixed, out));  // the zeros after the message are not in its length
    recursive::AnyMessage any;
    CHECK(recursive::decode_any_message(msg, any) && std::get<recursive::Node>(any) == list);
    // Shape (a union) decodes from a range too.
    enums_unions::Shape shape;
    shape.value = enums_unions::Shape::Rect{2.0f, 3.0f};
    const auto sb = enums_unions::encode(shape);
    enums_unions::Shape sback;
    CHECK(enums_unions::decode(sb, sback) && sback == shape);
    return 0;
}

// Default-initialize T in storage that held other bytes (0xFF), as a
// member or a new T without braces would be, and pass it to check.
template <class T, class F>
bool fresh(F check) {
    alignas(T) unsigned char raw[sizeof(T)];
    std::memset(raw, 0xFF, sizeof raw);
    T* v = new (raw) T;
    const bool ok = check(*v);
    v->~T();
    return ok;
}

// Union variant types have default member initializers, as structs do: a
// default-initialized Shape::Rect is zeros, an enum field its enum's first
// value, and a view variant's fields are zeros too (issue #19).
int variant_defaults() {
    using namespace enums_unions;
    CHECK(fresh<Shape::Rect>([](const Shape::Rect& r) { return r.width == 0.0f && r.height == 0.0f; }));
    CHECK(fresh<Shape::Polygon>([](const Shape::Polygon& p) { return p.points.empty() && !p.closed; }));
    CHECK(fresh<Nested::Leaf>([](const Nested::Leaf& l) { return l.value == Small::Zero; }));
    CHECK(fresh<Nested::Branch>([](const Nested::Branch& b) {
        return b.sparse == Sparse::First && b.shape.value.index() == 0;
    }));
    CHECK(fresh<ShapeView::Rect>([](const ShapeView::Rect& r) { return r.width == 0.0f && r.height == 0.0f; }));
    CHECK(fresh<NestedView::Leaf>([](const NestedView::Leaf& l) { return l.value == Small::Zero; }));
    // Value-initialized and emplaced variants hold the schema's defaults:
    // they encode.
    CHECK(Nested::Branch{}.sparse == Sparse::First);
    Nested n;
    n.value.emplace<1>();
    CHECK(std::get<1>(n.value).sparse == Sparse::First && !encode(n).empty());
    // Aggregate initialization and every spelling of the variant types work.
    const Shape s{Shape::Rect{1.0f, 2.0f}};
    CHECK(std::get_if<Shape::Rect>(&s.value)->height == 2.0f);
    CHECK((Nested{Nested::Branch{s, Sparse::Tenth}} == Nested{Nested::Branch{s, Sparse::Tenth}}));
    CHECK((Nested::Branch{s, Sparse::Tenth} != Nested::Branch{}));
    Shape t;
    t.value.emplace<Shape::Rect>(Shape::Rect{3.0f, 4.0f});
    CHECK(std::holds_alternative<Shape::Rect>(t.value) && t != s);
    return 0;
}

// Equal values hash equal (std::hash of every struct, union and variant
// type): a value and its copy, its decoded copy and its view's owned copy;
// -0.0 and 0.0; unordered containers of structs, unions and variants.
template <class T>
std::size_t hash_of(const T& v) {
    return std::hash<T>{}(v);
}

int hashing() {
    plugins::PluginRegistry reg;
    for (int i = 0; i < 3; i++) {
        plugins::Plugin pl{"EQ " + std::to_string(i), "ACME", "aufx", "eq01", {}};
        for (int j = 0; j <= i; j++) {
            plugins::Parameter par;
            par.address = static_cast<std::uint64_t>(j);
            par.display_name = "Gain";
            par.max_value = 1.0f;
            par.default_value = -0.0f;
            par.is_writable = j % 2 == 0;
            pl.parameters.push_back(par);
        }
        reg.plugins.push_back(pl);
    }
    reg.total_plugin_count = 3;
    const auto rb = plugins::encode(reg);
    plugins::PluginRegistry back;
    plugins::PluginRegistryView rv;
    CHECK(plugins::decode(rb, back) && back == reg && plugins::decode(rb, rv));
    const plugins::PluginRegistry copy = reg;
    CHECK(hash_of(back) == hash_of(reg) && hash_of(copy) == hash_of(reg) && hash_of(rv.to_owned()) == hash_of(reg));
    // -0.0 == 0.0, so they hash equal, in a struct and inside nested vectors.
    plugins::PluginRegistry zero = reg;
    zero.plugins[2].parameters[1].default_value = 0.0f;
    CHECK(zero == reg && hash_of(zero) == hash_of(reg));
    plugins::PluginRegistry other = reg;
    other.plugins[2].parameters[1].address = 7;
    CHECK(other != reg && hash_of(other) != hash_of(reg));
    std::unordered_set<plugins::Plugin> set(reg.plugins.begin(), reg.plugins.end());
    CHECK(set.size() == 3);
    for (const auto& pl : back.plugins) {
        CHECK(set.count(pl) == 1);
    }
    set.insert(zero.plugins[2]);
    CHECK(set.size() == 3);
    std::unordered_map<plugins::Parameter, int> counts;
    for (const auto& pl : reg.plugins) {
        for (const auto& par : pl.parameters) {
            counts[par]++;
        }
    }
    CHECK(counts.size() == 3 && counts[reg.plugins[0].parameters[0]] == 3 && counts[reg.plugins[2].parameters[2]] == 1);

    using namespace enums_unions;
    CHECK(hash_of(Circle{-0.0}) == hash_of(Circle{0.0}));
    CHECK(hash_of(Shape::Rect{-0.0f, 0.0f}) == hash_of(Shape::Rect{0.0f, -0.0f}));
    CHECK(hash_of(Shape{Shape::Rect{-0.0f, 1.0f}}) == hash_of(Shape{Shape::Rect{0.0f, 1.0f}}));
    CHECK(hash_of(Shape::Rect{1.0f, 2.0f}) != hash_of(Shape::Rect{2.0f, 1.0f}));
    // The variant held counts, not only its contents.
    CHECK(hash_of(Shape{Shape::None{}}) != hash_of(Shape{Shape::Marker{}}));
    Unions u;
    u.shape = Shape{Shape::Polygon{{1.0f, -0.0f}, true}};
    u.shapes = {Shape{Shape::Label{"a"}}, Shape{Circle{2.5}}, Shape{}};
    u.nested = Nested{Nested::Branch{Shape{Shape::Rect{1.0f, 2.0f}}, Sparse::Tenth}};
    u.maybe = Shape{Shape::Marker{}};
    const auto ub = encode(u);
    Unions uback;
    CHECK(decode(ub, uback) && uback == u && hash_of(uback) == hash_of(u));
    std::unordered_set<Shape> shapes(u.shapes.begin(), u.shapes.end());
    shapes.insert(uback.shapes.begin(), uback.shapes.end());
    shapes.insert(Shape{Shape::Polygon{{1.0f, 0.0f}, true}});
    shapes.insert(u.shape);
    CHECK(shapes.size() == 4 && shapes.count(Shape{Circle{2.5}}) == 1 && shapes.count(Shape{Circle{2.0}}) == 0);
    std::unordered_map<Shape::Rect, int> rects;
    rects[Shape::Rect{0.0f, 1.0f}] = 1;
    rects[Shape::Rect{-0.0f, 1.0f}] += 1;
    CHECK(rects.size() == 1 && rects.begin()->second == 2);
    std::unordered_set<Nested> nested{u.nested, uback.nested, Nested{}};
    CHECK(nested.size() == 2);
    Enums e;
    e.list = {Sparse::Big, Sparse::First};
    CHECK(hash_of(e) != hash_of(Enums()));

    // Arrays of every kind ([]bool is a std::vector<bool>), fixed arrays,
    // nested vectors, recursive boxes and unions.
    arrays::Arrays a;
    a.bools = {true, false, true};
    a.nested = {{1, 2}, {}};
    a.strings = {"x", ""};
    arrays::Arrays ab;
    CHECK(arrays::decode(arrays::encode(a), ab) && hash_of(ab) == hash_of(a));
    a.bools[1] = true;
    CHECK(hash_of(ab) != hash_of(a));
    arrays::Fixed f;
    f.matrix[1][2] = -0.0f;
    CHECK(hash_of(f) == hash_of(arrays::Fixed()));
    f.names[1] = "n";
    CHECK(hash_of(f) != hash_of(arrays::Fixed()));
    recursive::Node n{"a", recursive::Node{"b", recursive::Node{"c", {}}}};
    recursive::Node nb;
    CHECK(recursive::decode(recursive::encode(n), nb) && hash_of(nb) == hash_of(n));
    CHECK(hash_of(recursive::Node{"a", recursive::Node{"b", {}}}) != hash_of(n));
    recursive::Program add{recursive::Expr{recursive::Expr::Add{{recursive::Expr{recursive::Expr::Lit{1}},
                                                                  recursive::Expr{recursive::Expr::Lit{2}}}}}};
    recursive::Program pb;
    CHECK(recursive::decode(recursive::encode(add), pb) && hash_of(pb) == hash_of(add));
    // Views have no std::hash.
    static_assert(!std::is_default_constructible_v<std::hash<ShapeView>>, "a view has no std::hash");
    static_assert(!std::is_default_constructible_v<std::hash<plugins::PluginRegistryView>>, "a view has no std::hash");
    return 0;
}

// A top-level enum encodes and decodes on its own (issue #19): its wire
// value, with the enum's rule (a number it does not declare is rule enum at
// offset 0), trailing bytes refused, and the enum's first value left on error.
int enums_alone() {
    using namespace enums_unions;
    CHECK(encoded_size(Sparse::Tenth) == 2 && encoded_size(Wide::Max) == 4 && encoded_size(Small::Two) == 1);
    const std::vector<std::uint8_t> b = encode(Sparse::Tenth);
    CHECK((b == std::vector<std::uint8_t>{10, 0}) && b.capacity() == 2);
    CHECK((encode(Wide::Max) == std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}));
    std::uint8_t buf[4] = {};
    CHECK(encode_to(Sparse::Big, buf, 1) == 0 && buf[0] == 0);
    CHECK(encode_to(Sparse::Big, buf, sizeof buf) == 2 && buf[0] == 0xFF && buf[1] == 0xFF && buf[2] == 0);
    Sparse s = Sparse::Second;
    CHECK(decode(b.data(), b.size(), s) && s == Sparse::Tenth);
    s = Sparse::Second;
    CHECK(decode(b, s) && s == Sparse::Tenth); // over a range
    for (const Small v : {Small::Zero, Small::One, Small::Two}) {
        Small back = Small::One;
        CHECK(decode(encode(v), back) && back == v);
    }
    // A number the enum does not declare: rule enum at offset 0, and the
    // value decoded into is the enum's first value (Sparse's is not 0).
    const std::vector<std::uint8_t> three = {3, 0};
    Status st = decode(three, s);
    CHECK(st.code() == ErrorCode::Enum && st.offset() == 0 && st.path().empty() && s == Sparse::First);
    const std::vector<std::uint8_t> longer = {10, 0, 0};
    s = Sparse::Tenth;
    st = decode(longer, s);
    CHECK(st.code() == ErrorCode::Trailing && st.offset() == 2 && s == Sparse::First);
    std::size_t consumed = 0;
    CHECK(decode_prefix(longer, s, consumed) && consumed == 2 && s == Sparse::Tenth);
    CHECK(decode_prefix(longer.data(), longer.size(), s, consumed) && consumed == 2);
    st = decode(longer.data(), 1, s);
    CHECK(st.code() == ErrorCode::Truncated && st.offset() == 0 && s == Sparse::First);
    Wide w = Wide::Max;
    CHECK(decode(longer.data(), 0, w).code() == ErrorCode::Truncated && w == Wide::Min);
    // A value the enum does not declare cannot be encoded.
    const Sparse bad = static_cast<Sparse>(3);
    CHECK(encoded_size(bad) == 0 && encode(bad).empty() && encode_to(bad, buf, sizeof buf) == 0);
    return 0;
}

int main() {
    // Boxes copy deeply; equality compares contents.
    recursive::Node list;
    list.value = "a";
    list.next = recursive::Node{"b", recursive::Node{"c", {}}};
    recursive::Node copy = list;
    CHECK(copy == list);
    copy.next->next->value = "z";
    CHECK(list.next->next->value == "c");
    CHECK(copy != list);
    copy = list;
    CHECK(copy == list);
    recursive::Node moved = std::move(copy);
    CHECK(moved == list);

    // Lazy views of recursive optionals.
    const auto bytes = recursive::encode(list);
    recursive::NodeView nv;
    CHECK(recursive::decode(bytes.data(), bytes.size(), nv));
    CHECK(nv.value == "a" && nv.next.has_value());
    const recursive::NodeView second = nv.next.value();
    CHECK(second.value == "b" && (*second.next).value == "c" && !(*second.next).next);
    CHECK(nv.to_owned() == list);

    // Depth: the three-node list is depth 3.
    recursive::Node out;
    recursive::DecodeOptions opts;
    opts.max_depth = 3;
    CHECK(recursive::decode(bytes.data(), bytes.size(), out, opts));
    opts.max_depth = 2;
    recursive::Status st = recursive::decode(bytes.data(), bytes.size(), out, opts);
    CHECK(!st && st.code() == recursive::ErrorCode::Depth && std::string(st.rule()) == "depth");
    CHECK(st.path() == "next.next");
    CHECK(!recursive::decode(bytes.data(), bytes.size(), nv, opts));
    {
        // A path longer than Status::kPathSize is cut: "..." and its end. A
        // chain of 600 nodes cut before its last presence byte is truncated
        // at a path of 600 "next"s (2999 characters).
        std::vector<std::uint8_t> chain(5 * 600 - 1, 0);
        for (std::size_t k = 0; k + 1 < 600; ++k) {
            chain[5 * k + 4] = 1;
        }
        recursive::DecodeOptions deep;
        deep.max_depth = 1000;
        const recursive::Status cut = recursive::decode(chain.data(), chain.size(), out, deep);
        CHECK(cut.code() == recursive::ErrorCode::Truncated && cut.offset() == chain.size());
        CHECK(cut.path().size() == recursive::Status::kPathSize && cut.path().substr(0, 3) == "...");
        CHECK(cut.path().substr(cut.path().size() - 10) == ".next.next");
        recursive::NodeView cutv;
        CHECK(recursive::decode(chain.data(), chain.size(), cutv, deep).path() == cut.path());
    }

    // Recursive unions.
    recursive::Program prog;
    recursive::Expr::Add add;
    add.terms.push_back(recursive::Expr{recursive::Expr::Lit{1}});
    recursive::Expr::Neg neg{};
    neg.inner = recursive::Expr{recursive::Expr::Lit{2}};
    add.terms.push_back(recursive::Expr{neg});
    prog.body.value = add;
    const auto pb = recursive::encode(prog);
    recursive::Program pback;
    CHECK(recursive::decode(pb.data(), pb.size(), pback) && pback == prog);
    recursive::ProgramView pv;
    CHECK(recursive::decode(pb.data(), pb.size(), pv));
    const auto* addv = std::get_if<recursive::ExprView::Add>(&pv.body.value);
    CHECK(addv != nullptr && addv->terms.size() == 2);
    CHECK(std::get<recursive::ExprView::Lit>(addv->terms[0].value).value == 1);
    const auto negv = std::get<recursive::ExprView::Neg>(addv->terms[1].value);
    CHECK(std::get<recursive::ExprView::Lit>(negv.inner.value().value).value == 2);

    // Array views: numbers, bools, strings (variable size) and points (fixed).
    arrays::Arrays a;
    a.u32s = {1, 2, 0xFFFFFFFFu};
    a.f64s = {0.5, -1.25};
    a.bools = {true, false, true};
    a.bytes = {0xDE, 0xAD};
    a.strings = {"x", "yy", "zzz"};
    a.points = {{1.0, 2.0}, {3.0, 4.0}};
    a.nested = {{1}, {}, {2, 3}};
    const auto ab = arrays::encode(a);
    arrays::ArraysView av;
    CHECK(arrays::decode(ab.data(), ab.size(), av));
    CHECK(av.u32s.size() == 3 && av.u32s[2] == 0xFFFFFFFFu && av.u32s.to_vector() == a.u32s);
    double sum = 0;
    for (double f : av.f64s) {
        sum += f;
    }
    CHECK(sum == -0.75);
    CHECK(av.bools.size() == 3 && av.bools[0] && !av.bools[1]);
    CHECK(av.bytes.size_bytes() == 2 && av.bytes.data()[0] == 0xDE);
    CHECK(av.strings.size() == 3 && av.strings[2] == "zzz" && av.strings[0] == "x");
    std::size_t total = 0;
    for (std::string_view s : av.strings) {
        total += s.size();
    }
    CHECK(total == 6);
    CHECK(av.points[1].x == 3.0 && av.points[0].y == 2.0);
    CHECK(av.nested[2][1] == 3 && av.nested[1].empty());
    CHECK(av.to_owned() == a);

    // Decoding into a used value overwrites it completely: short strings
    // built in place, long strings into short ones and back, arrays grown
    // and shrunk.
    arrays::Arrays reused;
    reused.strings = {"a string much longer than sixteen bytes", "x", "", "another long string here"};
    reused.u32s = {9, 9, 9, 9, 9, 9};
    reused.f64s = {1.0};
    CHECK(arrays::decode(ab.data(), ab.size(), reused) && reused == a);
    arrays::Arrays longer = a;
    longer.strings = {"0123456789abcdefghij", "short", "0123456789abcdefghijklmnopqrstuvwxyz", "fifteen bytes!!"};
    const auto lb = arrays::encode(longer);
    CHECK(arrays::decode(lb.data(), lb.size(), reused) && reused == longer);
    CHECK(arrays::decode(ab.data(), ab.size(), reused) && reused == a);
    // Numeric arrays decode the same from any alignment of the input.
    for (std::size_t shift = 1; shift < 8; ++shift) {
        std::vector<std::uint8_t> shifted(shift, 0);
        shifted.insert(shifted.end(), ab.begin(), ab.end());
        arrays::Arrays at;
        CHECK(arrays::decode(shifted.data() + shift, ab.size(), at) && at == a);
        arrays::ArraysView atv;
        CHECK(arrays::decode(shifted.data() + shift, ab.size(), atv) && atv.to_owned() == a);
    }

    // Prefix decoding and trailing bytes.
    std::vector<std::uint8_t> two = ab;
    two.insert(two.end(), ab.begin(), ab.end());
    std::size_t used = 0;
    arrays::Arrays first;
    CHECK(arrays::decode_prefix(two.data(), two.size(), first, used) && used == ab.size() && first == a);
    const arrays::Status ast = arrays::decode(two.data(), two.size(), first);
    CHECK(ast.code() == arrays::ErrorCode::Trailing && ast.offset() == ab.size() && ast.path().empty());
    CHECK(arrays::Status().path().empty() && arrays::Status().to_string() == "ok");

    // encode_to refuses a short buffer.
    std::vector<std::uint8_t> small(ab.size() - 1);
    CHECK(arrays::encode_to(a, small.data(), small.size()) == 0);

    // A stream of messages, delivered by a source three bytes at a time.
    arrays::U32Array big;
    for (std::uint32_t i = 0; i < 5000; ++i) {
        big.values.push_back(i * 7);
    }
    const arrays::Point pt{1.5, -2.5};
    std::vector<std::uint8_t> stream;
    for (const auto& m : {arrays::encode_message(a), arrays::encode_message(pt), arrays::encode_message(big)}) {
        stream.insert(stream.end(), m.begin(), m.end());
    }
    struct Chunks {
        const std::vector<std::uint8_t>* bytes;
        std::size_t at;
        std::size_t operator()(std::uint8_t* p, std::size_t n) {
            const std::size_t left = bytes->size() - at;
            const std::size_t k = n < 3 ? n : 3;
            const std::size_t got = k < left ? k : left;
            if (got != 0) {
                std::memcpy(p, bytes->data() + at, got);
            }
            at += got;
            return got;
        }
    };
    arrays::MessageReader reader(Chunks{&stream, 0});
    arrays::AnyMessage msg;
    CHECK(reader.read(msg) && std::get<arrays::Arrays>(msg) == a);
    CHECK(reader.read(msg) && std::get<arrays::Point>(msg) == pt);
    CHECK(reader.read(msg) && std::get<arrays::U32Array>(msg) == big);
    CHECK(!reader.read(msg) && reader.status().ok() && reader.bytes_read() == stream.size());
    arrays::MessageReader views(Chunks{&stream, 0});
    arrays::AnyMessageView mv;
    CHECK(views.read(mv) && arrays::to_owned(mv) == arrays::AnyMessage(a));
    CHECK(views.read(mv) && std::get<arrays::PointView>(mv).y == -2.5);
    CHECK(views.read(mv) && std::get<arrays::U32ArrayView>(mv).values[4999] == 4999 * 7);
    CHECK(!views.read(mv) && views.status().ok());

    // The maximum size is checked from the header, before the payload.
    arrays::MessageReader limited(Chunks{&stream, 0}, ab.size() - 1);
    CHECK(!limited.read(msg) && limited.status().code() == arrays::ErrorCode::Message &&
          limited.status().offset() == 6 && limited.bytes_read() == 10);
    CHECK(!limited.read(msg));
    // A huge declared payload on a short stream: refused by the default
    // maximum, or read as far as the stream goes when the maximum allows it.
    std::vector<std::uint8_t> huge = {'S', 'D', 'P', '2', 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3};
    huge[4] = static_cast<std::uint8_t>(arrays::Arrays::kTypeId & 0xFF);
    huge[5] = static_cast<std::uint8_t>(arrays::Arrays::kTypeId >> 8);
    arrays::MessageReader refuse(Chunks{&huge, 0});
    CHECK(!refuse.read(msg) && refuse.status().code() == arrays::ErrorCode::Message && refuse.status().offset() == 6);
    arrays::MessageReader allow(Chunks{&huge, 0}, std::size_t{0xFFFFFFFF});
    CHECK(!allow.read(msg) && allow.status().code() == arrays::ErrorCode::Truncated &&
          allow.status().offset() == 10 && allow.bytes_read() == huge.size());
    // Ends inside a header, bad magic, an error inside the payload.
    std::vector<std::uint8_t> cut(stream.begin(), stream.begin() + 5);
    arrays::MessageReader in_header(Chunks{&cut, 0});
    CHECK(!in_header.read(msg) && in_header.status().code() == arrays::ErrorCode::Truncated &&
          in_header.status().offset() == 0 && in_header.bytes_read() == 5);
    std::vector<std::uint8_t> magic = stream;
    magic[3] = '1';
    arrays::MessageReader bad_magic(Chunks{&magic, 0});
    CHECK(!bad_magic.read(msg) && bad_magic.status().code() == arrays::ErrorCode::Message);
    arrays::SmallArrays sa;
    sa.names = {"ok"};
    std::vector<std::uint8_t> bad = arrays::encode_message(sa);
    bad[bad.size() - 6] = 0xFF; // the first byte of "ok"
    arrays::MessageReader bad_utf8(Chunks{&bad, 0});
    CHECK(!bad_utf8.read(msg) && bad_utf8.status().code() == arrays::ErrorCode::Utf8 &&
          bad_utf8.status().offset() == bad.size() - 10); // the string's length
    // The field path: the owned decoder, the view and the reader agree.
    CHECK(bad_utf8.status().path() == "names[0]");
    CHECK(bad_magic.status().path() == "message");
    {
        arrays::SmallArrays sao;
        arrays::SmallArraysView sav;
        const arrays::Status so = arrays::decode_message(bad.data(), bad.size(), sao);
        const arrays::Status sv = arrays::decode_message(bad.data(), bad.size(), sav);
        CHECK(so.path() == "names[0]" && sv.path() == "names[0]" && so.offset() == sv.offset());
        CHECK(so.to_string() == "utf8 at byte " + std::to_string(so.offset()) + " (names[0]): " + so.message());
        const arrays::Status so_copy = so;
        CHECK(so_copy.path() == "names[0]" && so_copy.offset() == so.offset());
    }
    // Index and stream offset: after a bad payload, or an unknown type id
    // whose payload is whole, the reader goes on with the next message.
    std::vector<std::uint8_t> mixed = arrays::encode_message(pt);
    const std::size_t off_bad = mixed.size();
    mixed.insert(mixed.end(), bad.begin(), bad.end());
    const std::size_t off_unknown = mixed.size();
    const std::vector<std::uint8_t> unknown = {'S', 'D', 'P', '2', 0xFE, 0xFF, 2, 0, 0, 0, 7, 7};
    mixed.insert(mixed.end(), unknown.begin(), unknown.end());
    const std::vector<std::uint8_t> am = arrays::encode_message(a);
    mixed.insert(mixed.end(), am.begin(), am.end());
    mixed.insert(mixed.end(), magic.begin(), magic.begin() + 10);
    const std::size_t off_magic = mixed.size() - 10;
    mixed.insert(mixed.end(), am.begin(), am.end());
    arrays::MessageReader goes_on(Chunks{&mixed, 0});
    CHECK(goes_on.read(msg) && goes_on.index() == 0 && goes_on.message_offset() == 0);
    CHECK(!goes_on.read(msg) && goes_on.status().code() == arrays::ErrorCode::Utf8 && goes_on.resumable() &&
          goes_on.index() == 1 && goes_on.message_offset() == off_bad &&
          goes_on.error_offset() == off_bad + bad.size() - 10);
    CHECK(!goes_on.read(msg) && goes_on.status().code() == arrays::ErrorCode::Message && goes_on.resumable() &&
          goes_on.index() == 2 && goes_on.error_offset() == off_unknown + 4);
    CHECK(goes_on.read(msg) && goes_on.index() == 3 && goes_on.message_offset() == off_unknown + unknown.size() &&
          msg == arrays::AnyMessage(a));
    CHECK(!goes_on.read(msg) && goes_on.status().code() == arrays::ErrorCode::Message && !goes_on.resumable() &&
          goes_on.index() == 4 && goes_on.error_offset() == off_magic);
    CHECK(!goes_on.read(msg) && goes_on.index() == 4); // a bad magic is sticky

    // The schema check: encode_hello, then the messages. A reader told to
    // require a hello checks it and returns message 1 first.
    CHECK(arrays::kFingerprint<arrays::Point> == arrays::Point::kFingerprint &&
          arrays::PointView::kFingerprint == arrays::Point::kFingerprint &&
          arrays::Point::kFingerprint != arrays::Arrays::kFingerprint);
    CHECK(enums_unions::kFingerprint<enums_unions::Small> != enums_unions::kFingerprint<enums_unions::Sparse>);

    // Enum helpers: the schema's name, empty for a number not declared;
    // usable in constant expressions.
    static_assert(enums_unions::enum_name(enums_unions::Sparse::Tenth) == "Tenth");
    static_assert(enums_unions::is_valid(enums_unions::Small::Two));
    CHECK(enums_unions::enum_name(enums_unions::Small::Zero) == "Zero");
    CHECK(enums_unions::enum_name(enums_unions::Sparse::Big) == "Big");
    CHECK(enums_unions::enum_name(static_cast<enums_unions::Sparse>(3)).empty());
    CHECK(!enums_unions::is_valid(static_cast<enums_unions::Small>(7)));
    CHECK(enums_unions::is_valid(static_cast<enums_unions::Sparse>(10)));
    std::vector<std::uint8_t> greeted = arrays::encode_hello();
    const std::size_t hello_size = greeted.size();
    CHECK(hello_size == 14 + 10 * std::size(arrays::kHelloEntries) && greeted[4] == 0 && greeted[5] == 0);
    static_assert(arrays::sdp::kMessageHeaderSize == 10 && arrays::sdp::kHelloTypeId == 0);
    CHECK(hello_size == arrays::sdp::kMessageHeaderSize + 4 + 10 * std::size(arrays::kHelloEntries));
    greeted.insert(greeted.end(), stream.begin(), stream.end());
    CHECK(!reader.schema_checked());
    arrays::MessageReader checked(Chunks{&greeted, 0});
    checked.set_require_hello(true);
    CHECK(checked.require_hello() && !checked.schema_checked());
    CHECK(checked.read(msg) && checked.schema_checked() && checked.index() == 1 &&
          checked.message_offset() == hello_size && std::get<arrays::Arrays>(msg) == a);
    CHECK(checked.read(msg) && checked.read(msg) && checked.index() == 3 && std::get<arrays::U32Array>(msg) == big);
    CHECK(!checked.read(msg) && checked.status().ok() && checked.bytes_read() == greeted.size());
    // A hello from another version of Point: rule schema at its fingerprint,
    // naming the struct and both fingerprints; the reader stops there.
    std::size_t at = 0;
    for (std::size_t i = 0; i < std::size(arrays::kHelloEntries); ++i) {
        if (arrays::kHelloEntries[i].type_id == arrays::Point::kTypeId) {
            at = 16 + 10 * i;
        }
    }
    CHECK(at != 0);
    std::vector<std::uint8_t> other = greeted;
    other[at + 5] ^= 1; // bit 40
    arrays::MessageReader mismatch(Chunks{&other, 0});
    CHECK(!mismatch.read(msg) && mismatch.status().code() == arrays::ErrorCode::Schema &&
          std::string(mismatch.status().rule()) == "schema" && mismatch.index() == 0 &&
          mismatch.error_offset() == at && !mismatch.resumable() && !mismatch.schema_checked());
    char ours[17], theirs[17];
    std::snprintf(ours, sizeof ours, "%016llx", static_cast<unsigned long long>(arrays::Point::kFingerprint));
    std::snprintf(theirs, sizeof theirs, "%016llx",
                  static_cast<unsigned long long>(arrays::Point::kFingerprint ^ (std::uint64_t{1} << 40)));
    const std::string text = mismatch.status().message();
    CHECK(text.find("Point") != std::string::npos && text.find(ours) != std::string::npos &&
          text.find(theirs) != std::string::npos && text.find("sdp compat") != std::string::npos);
    CHECK(!mismatch.read(msg) && mismatch.status().code() == arrays::ErrorCode::Schema);
    // Required but missing: rule schema at offset 4 of message 0; an empty
    // stream is not refused.
    arrays::MessageReader no_hello(Chunks{&stream, 0});
    no_hello.set_require_hello(true);
    CHECK(!no_hello.read(msg) && no_hello.status().code() == arrays::ErrorCode::Schema && no_hello.index() == 0 &&
          no_hello.error_offset() == 4 && !no_hello.resumable());
    const std::vector<std::uint8_t> nothing;
    arrays::MessageReader empty(Chunks{&nothing, 0});
    empty.set_require_hello(true);
    CHECK(!empty.read(msg) && empty.status().ok());
    // A hello that is not the first message is an unknown type id.
    std::vector<std::uint8_t> late = arrays::encode_message(pt);
    late.insert(late.end(), greeted.begin(), greeted.end());
    arrays::MessageReader after(Chunks{&late, 0});
    CHECK(after.read(msg) && !after.read(msg) && after.status().code() == arrays::ErrorCode::Message &&
          after.resumable() && after.index() == 1 && after.error_offset() == late.size() - greeted.size() + 4);

    // A count of 2^32 or more cannot be encoded (the wire's counts are u32):
    // every encoder refuses the value instead of truncating the count.
    if constexpr (sizeof(std::size_t) > 4) {
        arrays::Arrays too_long;
        too_long.bools.resize(std::size_t{1} << 32);
        std::uint8_t tiny[16];
        CHECK(arrays::encoded_size(too_long) == 0 && arrays::encode(too_long).empty());
        CHECK(arrays::encode_to(too_long, tiny, sizeof tiny) == 0);
        CHECK(arrays::encoded_message_size(too_long) == 0 && arrays::encode_message(too_long).empty());
        CHECK(arrays::encode_message_to(too_long, tiny, sizeof tiny) == 0);
        // 2^32 - 1 bools fit a count, but not a message's u32 payload length.
        too_long.bools.resize(0xFFFFFFFFu);
        CHECK(arrays::encoded_size(too_long) > 0xFFFFFFFFu && arrays::encoded_message_size(too_long) == 0);
        std::size_t calls = 0;
        arrays::MessageWriter refusing([&](const std::uint8_t*, std::size_t) { return ++calls != 0; },
                                       std::size_t{0xFFFFFFFFu});
        CHECK(!refusing.write(too_long) && refusing.status().code() == arrays::ErrorCode::Encode && calls == 0);
    }

    // MessageWriter: the same bytes as encode_hello and encode_message, for
    // a struct and an AnyMessage, into a bool sink or a size_t sink taking
    // a few bytes per call.
    {
        std::vector<std::uint8_t> want = arrays::encode_hello();
        for (const auto& m : {arrays::encode_message(a), arrays::encode_message(pt), arrays::encode_message(big)}) {
            want.insert(want.end(), m.begin(), m.end());
        }
        std::vector<std::uint8_t> got;
        std::size_t calls = 0;
        arrays::MessageWriter whole([&](const std::uint8_t* p, std::size_t n) {
            ++calls;
            got.insert(got.end(), p, p + n);
            return true;
        });
        CHECK(whole.max_size() == arrays::kDefaultMaxMessageSize);
        CHECK(whole.write_hello() && whole.write(a) && whole.write(arrays::AnyMessage(pt)) && whole.write(big));
        CHECK(got == want && calls == 4 && whole.count() == 4 && whole.bytes_written() == want.size() &&
              whole.status().ok());
        std::vector<std::uint8_t> pieces;
        arrays::MessageWriter bits([&](const std::uint8_t* p, std::size_t n) {
            n = n < 5 ? n : 5;
            pieces.insert(pieces.end(), p, p + n);
            return n;
        });
        CHECK(bits.write_hello() && bits.write(arrays::AnyMessage(a)) && bits.write(pt) &&
              bits.write(arrays::AnyMessage(big)));
        CHECK(pieces == want && bits.bytes_written() == want.size());
        // What it wrote reads back, hello checked.
        arrays::MessageReader back(Chunks{&got, 0});
        back.set_require_hello(true);
        CHECK(back.read(msg) && back.schema_checked() && msg == arrays::AnyMessage(a));

        // A payload over the maximum is refused, writing nothing, and the
        // writer goes on; one of exactly the maximum is written.
        const std::size_t pt_payload = arrays::encoded_message_size(pt) - 10;
        got.clear();
        calls = 0;
        arrays::MessageWriter capped([&](const std::uint8_t* p, std::size_t n) {
            ++calls;
            got.insert(got.end(), p, p + n);
            return true;
        }, pt_payload);
        capped.set_max_size(pt_payload);
        CHECK(!capped.write(big) && capped.status().code() == arrays::ErrorCode::Encode &&
              std::string(capped.status().rule()) == "encode" && capped.status().offset() == 6 &&
              std::string(capped.status().message()).find("maximum") != std::string::npos && calls == 0);
        CHECK(!capped.write(arrays::AnyMessage(big)) && capped.status().code() == arrays::ErrorCode::Encode);
        CHECK(capped.write(pt) && capped.status().ok() && got == arrays::encode_message(pt));
        // Refused after the buffer has grown too (encoded before the check).
        CHECK(!capped.write(a) && capped.status().code() == arrays::ErrorCode::Encode && capped.count() == 1);
        CHECK(capped.write(arrays::AnyMessage(pt)) && capped.count() == 2);

        // A failing sink: ErrorCode::Write, then every write fails.
        std::size_t room = 12;
        arrays::MessageWriter failing([&](const std::uint8_t*, std::size_t n) {
            n = n < room ? n : room;
            room -= n;
            return n;
        });
        CHECK(!failing.write(big) && failing.status().code() == arrays::ErrorCode::Write &&
              failing.status().offset() == 12 && failing.bytes_written() == 12 && failing.count() == 0);
        room = 1000;
        CHECK(!failing.write(pt) && !failing.write_hello() && failing.status().code() == arrays::ErrorCode::Write &&
              failing.bytes_written() == 12);
        arrays::MessageWriter refused([](const std::uint8_t*, std::size_t) { return false; });
        CHECK(!refused.write_hello() && refused.status().code() == arrays::ErrorCode::Write &&
              std::string(refused.status().rule()) == "write" && refused.count() == 0);
    }

    // Rule 11 (memory): three absent ?Big charge 3 × 520 at the count.
    const std::vector<std::uint8_t> holder = {3, 0, 0, 0, 0, 0, 0};
    hostile::Holder h;
    hostile::HolderView hv;
    hostile::DecodeOptions mopts;
    mopts.memory_limit = 3 * 520;
    CHECK(hostile::decode(holder.data(), holder.size(), h, mopts) && h.items.size() == 3 && !h.items[2]);
    CHECK(hostile::decode(holder.data(), holder.size(), hv, mopts) && hv.items.size() == 3);
    mopts.memory_limit = 3 * 520 - 1;
    hostile::Status mst = hostile::decode(holder.data(), holder.size(), h, mopts);
    CHECK(mst.code() == hostile::ErrorCode::Memory && mst.offset() == 0 && std::string(mst.rule()) == "memory" &&
          mst.path() == "items");
    CHECK(h.items.empty()); // a failed decode leaves the default value
    mst = hostile::decode(holder.data(), holder.size(), hv, mopts);
    CHECK(mst.code() == hostile::ErrorCode::Memory && mst.offset() == 0);
    hostile::Holder three;
    three.items.resize(3);
    const auto hmsg = hostile::encode_message(three);
    mst = hostile::decode_message(hmsg.data(), hmsg.size(), h, mopts);
    CHECK(mst.code() == hostile::ErrorCode::Memory && mst.offset() == 10);
    // A present recursive ?Node charges 528 at its presence byte.
    const std::vector<std::uint8_t> nodes = {0, 1, 0, 0};
    hostile::Node node;
    hostile::NodeView nodev;
    mopts.memory_limit = 528;
    CHECK(hostile::decode(nodes.data(), nodes.size(), node, mopts) && node.next && !node.next->next);
    mopts.memory_limit = 527;
    mst = hostile::decode(nodes.data(), nodes.size(), node, mopts);
    CHECK(mst.code() == hostile::ErrorCode::Memory && mst.offset() == 1);
    mst = hostile::decode(nodes.data(), nodes.size(), nodev, mopts);
    CHECK(mst.code() == hostile::ErrorCode::Memory && mst.offset() == 1);
    // The default limit, 32 × size + 1 MiB, counts a message's payload
    // only: 2149 absent ?Big fit the limit of the whole message but not
    // that of the payload; 2148 fit.
    CHECK(hostile::sdp::default_memory_limit(100) == 3200 + (1u << 20));
    for (const std::uint32_t k : {2148u, 2149u}) {
        std::vector<std::uint8_t> many(4 + k, 0);
        hostile::sdp::store(many.data(), k);
        const bool fits = k == 2148;
        CHECK(static_cast<bool>(hostile::decode(many.data(), many.size(), h)) == fits);
        CHECK(static_cast<bool>(hostile::decode(many.data(), many.size(), hv)) == fits);
        hostile::Holder filled;
        filled.items.resize(k);
        const auto mm = hostile::encode_message(filled);
        hostile::AnyMessage any;
        mst = hostile::decode_any_message(mm.data(), mm.size(), any);
        CHECK(fits ? mst.ok() : mst.code() == hostile::ErrorCode::Memory && mst.offset() == 10);
        CHECK(static_cast<bool>(hostile::decode_message(mm.data(), mm.size(), h)) == fits);
    }
    if (reuse() != 0 || refusals() != 0 || ranges() != 0 || variant_defaults() != 0 ||
        hashing() != 0 || enums_alone() != 0) {
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
`

// TestAPI builds and runs apiProgram under the sanitizers.
func TestAPI(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	dir := t.TempDir()
	var deps []string
	for _, name := range []string{"arrays", "enums_unions", "hostile", "plugins", "recursive"} {
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(dir, files[:2]); err != nil {
			t.Fatal(err)
		}
		deps = append(deps, filepath.Join(dir, name+".hpp"), filepath.Join(dir, name+".cpp"))
	}
	main := filepath.Join(dir, "api.cpp")
	if err := os.WriteFile(main, []byte(apiProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := compile(t, gxx, asanFlags(), main, deps...)
	exe := filepath.Join(dir, "api")
	link(t, gxx, sanitizeFlags, exe, obj)
	if out, err := exec.Command(exe).CombinedOutput(); err != nil || string(out) != "ok\n" {
		t.Fatalf("%v\n%s", err, out)
	}
}
