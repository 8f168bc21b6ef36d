// A tour of the C++ backend on the plugin-registry schema: build a value,
// encode it, decode it into owned values and zero-copy views, frame it as a
// message, read a stream of messages, and see how bad input is reported.
//
// Regenerate the code with:  sdp gen --lang cpp --out plugins plugins.sdp
// Build with CMake:          cmake -S . -B build && cmake --build build && ./build/example
// or directly:               g++ -std=c++17 -O2 -Iplugins main.cpp plugins/plugins.cpp -o example

#include "plugins.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main() {
    // Owned values are plain structs.
    plugins::Parameter gain;
    gain.address = 1;
    gain.display_name = "Gain";
    gain.identifier = "gain";
    gain.unit = "dB";
    gain.min_value = -60.0f;
    gain.max_value = 12.0f;
    gain.is_writable = true;

    plugins::PluginRegistry reg;
    reg.plugins.push_back({"EQ", "ACME", "aufx", "eq01", {gain, gain}});
    reg.plugins.push_back({"Reverb", "ACME", "aufx", "rvb1", {}});
    reg.total_plugin_count = 2;
    reg.total_parameter_count = 2;

    // Encoding: one exact-size allocation, or into your own buffer.
    const std::vector<std::uint8_t> bytes = plugins::encode(reg);
    std::vector<std::uint8_t> buf(plugins::encoded_size(reg));
    const std::size_t written = plugins::encode_to(reg, buf.data(), buf.size());
    std::printf("encoded %zu bytes (encode_to wrote %zu)\n", bytes.size(), written);

    // Owned decoding: strict, returns a Status.
    plugins::PluginRegistry back;
    plugins::Status st = plugins::decode(bytes.data(), bytes.size(), back);
    if (!st || back != reg) {
        std::printf("round trip failed: %s\n", st.to_string().c_str());
        return 1;
    }
    // Decoding into a value that holds one reuses its strings and vectors:
    // keep one value to decode many inputs without allocating.
    const std::string* first_name = &back.plugins[0].name;
    st = plugins::decode(bytes.data(), bytes.size(), back);
    std::printf("decoded again into the same value: %s, storage kept: %s\n", st.to_string().c_str(),
                &back.plugins[0].name == first_name ? "yes" : "no");

    // Zero-copy views: validated up front, strings point into `bytes`.
    plugins::PluginRegistryView view;
    if (!plugins::decode(bytes.data(), bytes.size(), view)) {
        return 1;
    }
    for (const plugins::PluginView& p : view.plugins) {
        std::printf("plugin %.*s with %zu parameters\n", static_cast<int>(p.name.size()), p.name.data(),
                    p.parameters.size());
        for (const plugins::ParameterView& param : p.parameters) {
            std::printf("  %.*s in [%g, %g] %.*s\n", static_cast<int>(param.display_name.size()),
                        param.display_name.data(), static_cast<double>(param.min_value),
                        static_cast<double>(param.max_value), static_cast<int>(param.unit.size()),
                        param.unit.data());
        }
    }
    if (view.to_owned() != reg) {
        return 1;
    }

    // Messages: a 10-byte header names the type; the dispatcher decodes any.
    const std::vector<std::uint8_t> msg = plugins::encode_message(reg);
    plugins::AnyMessage any;
    if (!plugins::decode_any_message(msg.data(), msg.size(), any)) {
        return 1;
    }
    if (const auto* r = std::get_if<plugins::PluginRegistry>(&any)) {
        std::printf("message of type %u holding %zu plugins\n", plugins::message_type_id(any), r->plugins.size());
    }

    // A stream of messages (here in memory; any byte sink and source work):
    // the writer encodes each message into one reused buffer and hands it to
    // the sink; the reader takes one message per call and refuses oversized
    // ones up front. The stream starts with the schema's hello, which the
    // reader checks (both ends use the same version of plugins.sdp) and skips.
    std::vector<std::uint8_t> stream;
    plugins::MessageWriter writer([&](const std::uint8_t* p, std::size_t n) {
        stream.insert(stream.end(), p, p + n);
        return true;
    });
    if (!writer.write_hello() || !writer.write(reg) || !writer.write(plugins::AnyMessage(gain))) {
        std::printf("write: %s\n", writer.status().to_string().c_str());
        return 1;
    }
    std::size_t at = 0;
    plugins::MessageReader reader([&](std::uint8_t* p, std::size_t n) {
        const std::size_t k = n < stream.size() - at ? n : stream.size() - at;
        std::copy(stream.begin() + static_cast<std::ptrdiff_t>(at),
                  stream.begin() + static_cast<std::ptrdiff_t>(at + k), p);
        at += k;
        return k;
    });
    reader.set_max_size(1 << 16);
    reader.set_require_hello(true);
    std::size_t count = 0;
    while (reader.read(any)) {
        ++count;
    }
    std::printf("stream: %zu messages, %s, schema checked: %s\n", count, reader.status().to_string().c_str(),
                reader.schema_checked() ? "yes" : "no");

    // Bad input: every rule of the wire format is checked, with the offset.
    std::vector<std::uint8_t> bad = bytes;
    bad[8] = 0xFF; // inside the first plugin's name: not UTF-8
    st = plugins::decode(bad.data(), bad.size(), back);
    std::printf("corrupted input: %s\n", st.to_string().c_str());
    // A failed decode resets the value to its default, never a partial one.
    std::printf("after the error: %zu plugins\n", back.plugins.size());
    st = plugins::decode(bytes.data(), bytes.size() - 1, back);
    std::printf("truncated input: %s (rule %s)\n", st.to_string().c_str(), st.rule());

    // A custom depth limit.
    plugins::DecodeOptions opts;
    opts.max_depth = 2;
    st = plugins::decode(bytes.data(), bytes.size(), back, opts);
    std::printf("depth limit 2: %s\n", st.to_string().c_str());
    return 0;
}
