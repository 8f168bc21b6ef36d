//go:build cgo

// The C++ collector: fills a registry::PluginRegistry (the code that
// `sdp gen --lang cpp --out cpp ../go/registry.sdp` wrote into cpp/), encodes
// it into a malloc'd buffer and hands it to Go through an extern "C"
// function. cgo compiles this file with the package (#cgo CXXFLAGS in
// cpp.go); it also builds with -fno-exceptions.

#include "collector.h"
#include "cpp/registry.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#if defined(__cpp_exceptions)
#include <exception>
#endif

namespace {

const char* const kVendors[] = {"ACME", "Z\xc3\xb6lzer DSP", "FabFilter"};
const char* const kUnits[] = {"dB", "Hz", "%", "\xc2\xb5s"};

// What a real collector would find by enumerating the machine's plugins
// (AudioComponent, VST3 scanning...): here, the example's deterministic
// registry (docs/ffi.md, "The example's registry").
registry::PluginRegistry collect(std::uint32_t plugin_count) {
    registry::PluginRegistry reg;
    reg.plugins.resize(plugin_count);
    std::uint32_t params = 0;
    for (std::uint32_t i = 0; i < plugin_count; i++) {
        registry::Plugin& p = reg.plugins[i];
        p.name = "Plugin " + std::to_string(i);
        p.manufacturer_id = kVendors[i % 3];
        p.component_type = "aufx";
        char subtype[16];
        std::snprintf(subtype, sizeof subtype, "p%03u", static_cast<unsigned>(i));
        p.component_subtype = subtype;
        const std::uint32_t n = 22 + i % 17;
        p.parameters.resize(n);
        for (std::uint32_t j = 0; j < n; j++) {
            registry::Parameter& q = p.parameters[j];
            q.address = (static_cast<std::uint64_t>(i) << 32) | j;
            q.display_name = "Param " + std::to_string(j);
            q.identifier = "p" + std::to_string(i) + "." + std::to_string(j);
            q.unit = kUnits[j % 4];
            q.min_value = -static_cast<float>(j);
            q.max_value = static_cast<float>(j + 1);
            q.default_value = 0.5f * static_cast<float>(j);
            q.current_value = 0.25f * static_cast<float>(i);
            q.raw_flags = i * 1000 + j;
            q.is_writable = j % 3 != 0;
            q.can_ramp = j % 2 == 0;
        }
        params += n;
    }
    reg.total_plugin_count = plugin_count;
    reg.total_parameter_count = params;
    return reg;
}

sdpffi_result failure(std::int32_t status, const char* message) {
    sdpffi_result r{};
    r.status = status;
    std::snprintf(r.message, sizeof r.message, "%s", message);
    return r;
}

sdpffi_result encode_for_go(const registry::PluginRegistry& reg) {
    // encoded_size is 0 when the value cannot be encoded (a string that is
    // not UTF-8, an enum or union value the schema does not name, a count
    // over 2^32-1): the C++ backend does not say which. A PluginRegistry
    // always has fields, so a valid one never encodes to 0 bytes.
    const std::size_t n = registry::encoded_size(reg);
    if (n == 0) {
        return failure(SDPFFI_ERR_ENCODE,
                       "registry::encoded_size returned 0: the value cannot be encoded "
                       "(a string that is not UTF-8, or a count over 2^32-1)");
    }
    auto* buf = static_cast<std::uint8_t*>(std::malloc(n));
    if (buf == nullptr) {
        return failure(SDPFFI_ERR_NOMEM, "malloc failed");
    }
    // Encode straight into the buffer Go will own: no std::vector, no copy.
    if (registry::encode_to(reg, buf, n) != n) {
        std::free(buf);
        return failure(SDPFFI_ERR_ENCODE, "registry::encode_to wrote fewer bytes than encoded_size");
    }
    sdpffi_result r{};
    r.data = buf;
    r.len = n;
    r.status = SDPFFI_OK;
    return r;
}

} // namespace

// No exception may leave an extern "C" function: with exceptions enabled,
// catch everything (std::bad_alloc from building the registry) and turn it
// into a status; with -fno-exceptions an allocation failure aborts anyway.
extern "C" sdpffi_result sdpffi_cpp_collect(std::uint32_t plugin_count, int corrupt) {
#if defined(__cpp_exceptions)
    try {
#endif
        registry::PluginRegistry reg = collect(plugin_count);
        if (corrupt != 0 && !reg.plugins.empty()) {
            reg.plugins.back().name = "bad \xff name"; // not UTF-8: the encoder refuses it
        }
        return encode_for_go(reg);
#if defined(__cpp_exceptions)
    } catch (const std::exception& e) {
        return failure(SDPFFI_ERR_INTERNAL, e.what());
    } catch (...) {
        return failure(SDPFFI_ERR_INTERNAL, "unknown C++ exception");
    }
#endif
}
