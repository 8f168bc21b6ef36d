package cpp

import (
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

// testeeCode writes the conformance testee for a schema as a namespace
// testee_<name> with a serve() function: it answers the protocol of
// conformance/testee.go on stdin/stdout, decoding every input through both
// the owned and the view API and reporting status 2 when they disagree.
// testeeProgram puts the testees of several schemas into one program.
func testeeCode(s *schema.Schema) []byte {
	g, err := newGenerator(s, gen.Options{})
	if err != nil {
		panic(err)
	}
	ns := strings.Join(g.ns, "::")
	p := emit.New(indent)
	p.P("namespace testee_", g.file, " {")
	p.P()
	p.P("using Bytes = std::vector<std::uint8_t>;")
	p.F("namespace ns = ::%s;", ns)
	p.P()
	p.Line(`#ifdef SDP_TESTEE_FUZZ
// Under the fuzzer a broken reply (the APIs disagree) is a crash; accepted
// and rejected inputs are fine.
void reply(std::uint8_t status, const std::uint8_t* data, std::size_t n) {
    if (status == 2) {
        std::fwrite(data, 1, n, stderr);
        std::fputc('\n', stderr);
        std::abort();
    }
}
#else
void reply(std::uint8_t status, const std::uint8_t* data, std::size_t n) {
    const std::uint32_t len = static_cast<std::uint32_t>(n + 1);
    const std::uint8_t hdr[5] = {static_cast<std::uint8_t>(len), static_cast<std::uint8_t>(len >> 8),
                                 static_cast<std::uint8_t>(len >> 16), static_cast<std::uint8_t>(len >> 24), status};
    std::fwrite(hdr, 1, 5, stdout);
    if (n != 0) {
        std::fwrite(data, 1, n, stdout);
    }
    std::fflush(stdout);
}
#endif

void reply(std::uint8_t status, const std::string& text) {
    reply(status, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::string describe(const ns::sdp::Status& st) {
    return std::string(st.rule()) + ": " + st.to_string() + " [@" + std::to_string(st.offset()) + " " +
           std::string(st.path()) + "]";
}

// The rejection text of the testee protocol, with the offset and path:
// "<rule> @<offset> <path>: <message>".
std::string rejection(const ns::sdp::Status& st) {
    return std::string(st.rule()) + " @" + std::to_string(st.offset()) + " " + std::string(st.path()) + ": " +
           st.to_string();
}

bool same(const ns::sdp::Status& a, const ns::sdp::Status& b) {
    return a.code() == b.code() && a.offset() == b.offset() && a.path() == b.path();
}

// Checks encoded_size, encode and encode_to against each other; returns
// "" or what disagreed.
template <class T>
std::string check_encoders(const T& v, const Bytes& want) {
    if (ns::encoded_size(v) != want.size()) {
        return "encoded_size disagrees with encode";
    }
    Bytes buf(want.size() + 1, 0xEE);
    if (ns::encode_to(v, buf.data(), want.size()) != want.size() || !std::equal(want.begin(), want.end(), buf.begin())) {
        return "encode_to with an exact buffer disagrees with encode";
    }
    if (!want.empty() && ns::encode_to(v, buf.data(), want.size() - 1) != 0) {
        return "encode_to wrote into a buffer that is too small";
    }
    return "";
}

// Checks that a default T encodes to bytes its decoder accepts and that
// decode back to it (an enum defaults to its first declared value, a union
// to its first variant); returns "" or what failed.
template <class T>
std::string check_default() {
    const T def{};
    const Bytes b = ns::encode(def);
    T back;
    const ns::sdp::Status st = ns::decode(b.data(), b.size(), back);
    if (!st) {
        return "the default value encodes to bytes decode rejects: " + describe(st);
    }
    if (!(back == def) || ns::encode(back) != b) {
        return "the default value decodes to another value";
    }
    if (std::hash<T>{}(back) != std::hash<T>{}(def)) {
        return "the default value and its decoded copy hash differently";
    }
    return "";
}

// The encoding of a default-constructed T (built in place: a temporary
// of a type with large fixed arrays would be on the stack).
template <class T>
const Bytes& default_bytes() {
    static const Bytes def = [] {
        const std::unique_ptr<T> v(new T());
        return ns::encode(*v);
    }();
    return def;
}

template <class T, class V>
void roundtrip(const Bytes& in) {
    static const std::string bad_default = check_default<T>();
    if (!bad_default.empty()) {
        reply(2, bad_default);
        return;
    }
    // Decoding into an existing value: every input of a type is decoded
    // into what the previous input of that type left (docs/conformance.md,
    // "Decoding into an existing value"), owned and view alike.
    static T reused;
    static V reused_view;
    T owned;
    const ns::sdp::Status so = ns::decode(in.data(), in.size(), owned);
    V view;
    const ns::sdp::Status sv = ns::decode(in.data(), in.size(), view);
    if (!same(so, sv)) {
        reply(2, "owned decode: " + describe(so) + "; view decode: " + describe(sv));
        return;
    }
    const ns::sdp::Status sr = ns::decode(in.data(), in.size(), reused);
    const ns::sdp::Status srv = ns::decode(in.data(), in.size(), reused_view);
    if (!same(so, sr) || !same(so, srv)) {
        reply(2, "owned decode: " + describe(so) + "; decode into an existing value: " + describe(sr) +
                     "; into an existing view: " + describe(srv));
        return;
    }
    if (!so) {
        // (A default view, whose fixed arrays point nowhere, is not read.)
        if (ns::encode(reused) != default_bytes<T>()) {
            reply(2, "a rejected decode into an existing value left it other than the default value");
            return;
        }
        reply(1, rejection(so));
        return;
    }
    const Bytes out = ns::encode(owned);
    if (ns::encode(reused) != out) {
        reply(2, "the value decoded into an existing value differs from the one decoded into a new value");
        return;
    }
    if (ns::encode(ns::to_owned(view)) != out || ns::encode(view.to_owned()) != out ||
        ns::encode(ns::to_owned(reused_view)) != out) {
        reply(2, "view -> owned -> encode differs from owned -> encode");
        return;
    }
    const std::string bad = check_encoders(owned, out);
    if (!bad.empty()) {
        reply(2, bad);
        return;
    }
    T copy = owned;
    if (ns::encode(copy) != out) {
        reply(2, "a copy encodes differently");
        return;
    }
    // Values of the same bytes are equal (NaNs aside) and hash equal: the
    // copy, the value decoded into an existing one, the view's owned copy.
    const std::size_t hash = std::hash<T>{}(owned);
    if (std::hash<T>{}(copy) != hash || std::hash<T>{}(reused) != hash || std::hash<T>{}(ns::to_owned(view)) != hash) {
        reply(2, "values decoded from the same bytes hash differently");
        return;
    }
    Bytes longer = in;
    longer.push_back(0);
    std::size_t consumed = 0;
    T prefix;
    V prefix_view;
    if (!ns::decode_prefix(longer.data(), longer.size(), prefix, consumed) || consumed != in.size() ||
        !ns::decode_prefix(longer.data(), longer.size(), prefix_view, consumed) || consumed != in.size()) {
        reply(2, "decode_prefix does not stop at the end of the value");
        return;
    }
    if (ns::decode(longer.data(), longer.size(), prefix).code() != ns::sdp::ErrorCode::Trailing) {
        reply(2, "a trailing byte was not reported as trailing");
        return;
    }
    if (ns::encode(prefix) != default_bytes<T>()) {
        reply(2, "a decode rejected for a trailing byte left the value other than the default value");
        return;
    }
    reply(0, out.data(), out.size());
}

template <class T, class V>
std::string typed_message(const Bytes& in, const Bytes& want) {
    T owned;
    V view;
    if (!ns::decode_message(in.data(), in.size(), owned) || !ns::decode_message(in.data(), in.size(), view)) {
        return "decode_message rejects what decode_any_message accepted";
    }
    if (ns::encode_message(owned) != want || ns::encode_message(ns::to_owned(view)) != want) {
        return "decode_message and decode_any_message disagree";
    }
    if (ns::encoded_message_size(owned) != want.size()) {
        return "encoded_message_size disagrees with encode_message";
    }
    Bytes buf(want.size());
    if (ns::encode_message_to(owned, buf.data(), buf.size()) != want.size() || buf != want ||
        ns::encode_message_to(owned, buf.data(), buf.size() - 1) != 0) {
        return "encode_message_to disagrees with encode_message";
    }
    return "";
}

`)
	p.Block("std::string typed(const Bytes& in, const Bytes& want, std::uint16_t id) {", "}", func() {
		p.P("switch (id) {")
		for _, st := range s.Structs {
			n := g.name(st)
			p.F("case ns::%s::kTypeId:", n)
			p.F(indent+"return typed_message<ns::%s, ns::%s>(in, want);", n, g.viewName(st))
		}
		p.P("default:")
		p.P(indent + "return \"message_type_id names no struct\";")
		p.P("}")
	})
	p.P()
	p.Line(`void message(const Bytes& in) {
    ns::AnyMessage owned;
    const ns::sdp::Status so = ns::decode_any_message(in.data(), in.size(), owned);
    ns::AnyMessageView view;
    const ns::sdp::Status sv = ns::decode_any_message(in.data(), in.size(), view);
    if (!same(so, sv)) {
        reply(2, "owned decode: " + describe(so) + "; view decode: " + describe(sv));
        return;
    }
    // Every message is also decoded into the one the previous request left.
    static ns::AnyMessage reused;
    const ns::sdp::Status sr = ns::decode_any_message(in.data(), in.size(), reused);
    if (!same(so, sr)) {
        reply(2, "owned decode: " + describe(so) + "; decode into an existing message: " + describe(sr));
        return;
    }
    if (!so) {
        if (reused.index() != 0 || ns::encode_message(reused) != ns::encode_message(ns::AnyMessage())) {
            reply(2, "a rejected decode into an existing message left it other than the default message");
            return;
        }
        reply(1, rejection(so));
        return;
    }
    const Bytes out = ns::encode_message(owned);
    if (ns::encode_message(reused) != out || reused.index() != owned.index()) {
        reply(2, "the message decoded into an existing message differs from the one decoded into a new one");
        return;
    }
    if (ns::encode_message(ns::to_owned(view)) != out || owned.index() != view.index()) {
        reply(2, "view -> owned -> encode_message differs from owned -> encode_message");
        return;
    }
    if (ns::encoded_message_size(owned) != out.size()) {
        reply(2, "encoded_message_size disagrees with encode_message");
        return;
    }
    const std::string bad = typed(in, out, ns::message_type_id(owned));
    if (!bad.empty()) {
        reply(2, bad);
        return;
    }
    reply(0, out.data(), out.size());
}

// Reads a stream from in, chunk bytes per source call at most.
struct Chunks {
    const Bytes* in;
    std::size_t pos;
    std::size_t chunk;
    std::size_t operator()(std::uint8_t* p, std::size_t n) {
        n = std::min(std::min(n, chunk), in->size() - pos);
        if (n != 0) {
            std::memcpy(p, in->data() + pos, n);
        }
        pos += n;
        return n;
    }
};

// Appends what a MessageWriter writes to out: all of it per call (a bool
// sink), or at most chunk bytes per call (a size_t sink).
struct Append {
    Bytes* out;
    bool operator()(const std::uint8_t* p, std::size_t n) {
        out->insert(out->end(), p, p + n);
        return true;
    }
};
struct AppendChunks {
    Bytes* out;
    std::size_t chunk;
    std::size_t operator()(const std::uint8_t* p, std::size_t n) {
        n = std::min(n, chunk);
        out->insert(out->end(), p, p + n);
        return n;
    }
};

// The writer of the messages read into M: the owned reader's writes each
// AnyMessage whole; the view reader's writes the struct of each message
// (the owned copy of the view), a few bytes per sink call.
template <class M>
struct StreamOut {
    ns::MessageWriter<Append> writer;
    StreamOut(Bytes& out, std::size_t max) : writer(Append{&out}, max) {}
    bool write(const ns::AnyMessage& m) { return writer.write(m); }
};
template <>
struct StreamOut<ns::AnyMessageView> {
    ns::MessageWriter<AppendChunks> writer;
    StreamOut(Bytes& out, std::size_t max) : writer(AppendChunks{&out, 3}, max) {}
    bool write(const ns::AnyMessageView& m) {
        return std::visit([this](const auto& v) { return this->writer.write(v); }, ns::to_owned(m));
    }
};

// Reads the stream with a MessageReader into M and writes every message
// back with a MessageWriter of the same maximum, after the schema's own
// hello (write_hello) when the stream began with one; the text of the
// first error, or "".
template <class M>
std::string read_stream(const Bytes& in, std::size_t chunk, Bytes& out) {
    std::uint32_t max = 0;
    for (int i = 3; i >= 0; i--) {
        max = max << 8 | in[static_cast<std::size_t>(i)];
    }
    const std::size_t limit = max == 0 ? static_cast<std::size_t>(-1) : max;
    ns::MessageReader<Chunks> reader(Chunks{&in, 4, chunk}, limit);
    StreamOut<M> w(out, limit);
    bool greeted = false;
    M m;
    while (reader.read(m)) {
        if (reader.schema_checked() && !greeted) {
            greeted = true;
            if (!w.writer.write_hello()) {
                return "write_hello: " + w.writer.status().to_string();
            }
        }
        if (!w.write(m)) {
            return "write: " + w.writer.status().to_string();
        }
    }
    if (reader.status()) {
        if (reader.schema_checked() && !greeted && !w.writer.write_hello()) {
            return "write_hello: " + w.writer.status().to_string();
        }
        if (w.writer.bytes_written() != out.size()) {
            return "the writer counts another size";
        }
        return "";
    }
    if constexpr (std::is_same_v<M, ns::AnyMessage>) {
        // After an error the message read into is the default one (which
        // makes the owned and the view readers disagree: status 2).
        if (m.index() != 0 || ns::encode_message(m) != ns::encode_message(ns::AnyMessage())) {
            return "the reader left a message other than the default after an error";
        }
    }
    return std::string(reader.status().rule()) + " " + std::to_string(reader.index()) + " " +
           std::to_string(reader.error_offset()) + ": message #" + std::to_string(reader.index()) + " at stream offset " +
           std::to_string(reader.message_offset()) + ": " + reader.status().to_string();
}

// OpStream: the owned reader, with the whole rest of the stream at hand,
// and the view reader, fed a few bytes at a time, must agree.
void stream(const Bytes& in) {
    if (in.size() < 4) {
        reply(2, "a stream request needs the u32 maximum payload length");
        return;
    }
    Bytes out;
    const std::string err = read_stream<ns::AnyMessage>(in, in.size(), out);
    Bytes view_out;
    const std::string view_err = read_stream<ns::AnyMessageView>(in, 3, view_out);
    if (err != view_err || out != view_out) {
        reply(2, "the owned and the view stream readers disagree: " + err + "; " + view_err);
        return;
    }
    if (!err.empty()) {
        reply(1, err);
        return;
    }
    reply(0, out.data(), out.size());
}

// The OpStreamAll line of the reader's last error.
template <class R>
std::string error_line(const R& reader) {
    return std::string(reader.status().rule()) + " " + std::to_string(reader.index()) + " " +
           std::to_string(reader.error_offset()) + (reader.resumable() ? " 1\n" : " 0\n");
}

// Reads the whole stream with a MessageReader into M, going on after every
// resumable() error and reading once more after one that ends the stream;
// the OpStreamAll reply: the error lines after their u32 length, then every
// message written back with a MessageWriter (after write_hello when the
// stream began with a hello).
template <class M>
Bytes read_stream_all(const Bytes& in, std::size_t chunk) {
    std::uint32_t max = 0;
    for (int i = 3; i >= 0; i--) {
        max = max << 8 | in[static_cast<std::size_t>(i)];
    }
    const std::size_t limit = max == 0 ? static_cast<std::size_t>(-1) : max;
    ns::MessageReader<Chunks> reader(Chunks{&in, 4, chunk}, limit);
    M m;
    Bytes out;
    StreamOut<M> w(out, limit);
    std::string lines;
    bool answered = false;
    for (;;) {
        const bool got = reader.read(m);
        if (reader.schema_checked() && !answered) {
            answered = true;
            if (!w.writer.write_hello()) {
                lines += "write_hello failed\n";
                break;
            }
        }
        if (got) {
            if (!w.write(m)) {
                lines += "write failed: " + w.writer.status().to_string() + "\n";
                break;
            }
            continue;
        }
        if (reader.status()) {
            break;
        }
        lines += error_line(reader);
        if (reader.resumable()) {
            continue;
        }
        // The stream ends here: a second read must repeat the error.
        if (reader.read(m)) {
            lines += "message\n";
        } else if (reader.status()) {
            lines += "end\n";
        } else {
            lines += error_line(reader);
        }
        break;
    }
    Bytes reply(4);
    for (int i = 0; i < 4; i++) {
        reply[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(lines.size() >> (8 * i));
    }
    reply.insert(reply.end(), lines.begin(), lines.end());
    reply.insert(reply.end(), out.begin(), out.end());
    return reply;
}

// OpStreamAll: the owned reader, with the whole rest of the stream at hand,
// and the view reader, fed a few bytes at a time, must agree.
void stream_all(const Bytes& in) {
    if (in.size() < 4) {
        reply(2, "a stream request needs the u32 maximum payload length");
        return;
    }
    const Bytes owned = read_stream_all<ns::AnyMessage>(in, in.size());
    const Bytes view = read_stream_all<ns::AnyMessageView>(in, 3);
    if (owned != view) {
        reply(2, "the owned and the view stream readers disagree: " + std::string(owned.begin() + 4, owned.end()) + "; " +
                     std::string(view.begin() + 4, view.end()));
        return;
    }
    reply(0, owned.data(), owned.size());
}

`)
	p.P("// One fuzzer input: byte 0 picks the struct (low 7 bits) and whether the")
	p.P("// rest is a message (high bit).")
	p.Block("void fuzz_one(const std::uint8_t* data, std::size_t size) {", "}", func() {
		p.P("if (size == 0) {")
		p.P(indent + "return;")
		p.P("}")
		p.P("const Bytes in(data + 1, data + size);")
		p.Block("if ((data[0] & 0x80) != 0) {", "}", func() {
			p.P("message(in);")
			p.P("Bytes request(4, 0);")
			p.P("request.insert(request.end(), in.begin(), in.end());")
			p.P("stream(request);")
			p.P("return;")
		})
		p.F("switch ((data[0] & 0x7f) %% %d) {", len(s.Structs))
		for i, st := range s.Structs {
			p.F("case %d:", i)
			p.F(indent+"roundtrip<ns::%s, ns::%s>(in);", g.name(st), g.viewName(st))
			p.P(indent + "break;")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
	})
	p.P()
	p.Block("int serve() {", "}", func() {
		p.Block("for (;;) {", "}", func() {
			p.P("std::uint8_t hdr[4];")
			p.P("if (std::fread(hdr, 1, 4, stdin) != 4) {")
			p.P(indent + "return 0;")
			p.P("}")
			p.P("const std::size_t n = static_cast<std::size_t>(hdr[0]) | static_cast<std::size_t>(hdr[1]) << 8 |")
			p.P("                      static_cast<std::size_t>(hdr[2]) << 16 | static_cast<std::size_t>(hdr[3]) << 24;")
			p.P("Bytes req(n);")
			p.P("if (n < 3 || std::fread(req.data(), 1, n, stdin) != n) {")
			p.P(indent + "return 1;")
			p.P("}")
			p.P("const std::uint16_t id = static_cast<std::uint16_t>(req[1] | req[2] << 8);")
			p.P("const Bytes in(req.begin() + 3, req.end());")
			p.Block("if (req[0] == 2) {", "}", func() {
				p.P("message(in);")
				p.P("continue;")
			})
			p.Block("if (req[0] == 3) {", "}", func() {
				p.P("stream(in);")
				p.P("continue;")
			})
			p.Block("if (req[0] == 4) {", "}", func() {
				p.P("stream_all(in);")
				p.P("continue;")
			})
			p.P("switch (id) {")
			for _, st := range s.Structs {
				n := g.name(st)
				p.F("case ns::%s::kTypeId:", n)
				p.F(indent+"roundtrip<ns::%s, ns::%s>(in);", n, g.viewName(st))
				p.P(indent + "break;")
			}
			p.P("default:")
			p.P(indent + fmt.Sprintf("reply(2, \"unknown type id \" + std::to_string(id));"))
			p.P("}")
		})
	})
	p.P()
	p.P("} // namespace testee_", g.file)
	return p.Bytes()
}

// testeeProgram is one translation unit holding the generated sources of
// every schema (generated into dir/<name>/) and their testees; its main
// serves the schema named by its argument.
func testeeProgram(schemas []*schema.Schema) []byte {
	p := emit.New(indent)
	for _, s := range schemas {
		p.F("#include \"%s/%s.cpp\"", s.Name, s.Name)
	}
	p.P()
	p.P("#include <algorithm>")
	p.P("#include <cstdio>")
	p.P("#include <cstdlib>")
	p.P("#include <cstring>")
	p.P("#include <memory>")
	p.P("#include <string>")
	p.P("#include <type_traits>")
	p.P("#include <vector>")
	p.P("#ifdef SDP_TESTEE_STACK")
	p.P("#include <pthread.h>")
	p.P("#endif")
	for _, s := range schemas {
		p.P()
		p.Line(strings.TrimRight(string(testeeCode(s)), "\n"))
	}
	p.P()
	p.P("#ifdef SDP_TESTEE_FUZZ")
	p.P("// libFuzzer: byte 0 picks the schema, the rest goes to its fuzz_one.")
	p.P("extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);")
	p.P()
	p.Block("extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {", "}", func() {
		p.P("if (size == 0) {")
		p.P(indent + "return 0;")
		p.P("}")
		p.F("switch (data[0] %% %d) {", len(schemas))
		for i, s := range schemas {
			p.F("case %d:", i)
			p.F(indent+"testee_%s::fuzz_one(data + 1, size - 1);", s.Name)
			p.P(indent + "break;")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
		p.P("return 0;")
	})
	p.P("#else")
	p.Block("int serve_main(int argc, char** argv) {", "}", func() {
		for _, s := range schemas {
			p.F("if (argc == 2 && std::strcmp(argv[1], \"%s\") == 0) {", s.Name)
			p.F(indent+"return testee_%s::serve();", s.Name)
			p.P("}")
		}
		p.P("std::fprintf(stderr, \"usage: testee SCHEMA\\n\");")
		p.P("return 2;")
	})
	p.P()
	p.Line(`#ifdef SDP_TESTEE_STACK
// Built with -DSDP_TESTEE_STACK=BYTES (and -pthread), the testee serves on a
// thread with a stack of that size (TestHostile: gentest.HostileStack).
struct ServeArgs {
    int argc;
    char** argv;
    int rc;
};

void* serve_thread(void* arg) {
    ServeArgs* a = static_cast<ServeArgs*>(arg);
    a->rc = serve_main(a->argc, a->argv);
    return nullptr;
}

int main(int argc, char** argv) {
    ServeArgs a{argc, argv, 2};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, SDP_TESTEE_STACK) != 0 ||
        pthread_create(&thread, &attr, serve_thread, &a) != 0 || pthread_join(thread, nullptr) != 0) {
        std::fprintf(stderr, "testee: cannot start a thread with a %d-byte stack\n", SDP_TESTEE_STACK);
        return 2;
    }
    return a.rc;
}
#else
int main(int argc, char** argv) { return serve_main(argc, argv); }
#endif`)
	p.P("#endif")
	return p.Bytes()
}
