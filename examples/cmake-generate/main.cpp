// Encodes a batch of sensor readings with the C++ code that sdp_generate()
// generated from sensors.sdp at build time, and decodes it back.
#include "sensors.hpp"

#include <cstdio>
#include <vector>

int main() {
    sensors::Batch batch;
    batch.device = "greenhouse-1";
    batch.readings.push_back({"air", sensors::Unit::Celsius, 21.5, 1700000000});
    batch.readings.push_back({"soil", sensors::Unit::Percent, 43.0, 1700000001});
    batch.battery = 0.87f;

    const std::vector<std::uint8_t> bytes = sensors::encode(batch);
    sensors::Batch back;
    const sensors::Status st = sensors::decode(bytes.data(), bytes.size(), back);
    if (!st || back != batch) {
        std::printf("round trip failed: %s\n", st.to_string().c_str());
        return 1;
    }
    std::printf("C++: %s sent %zu readings in %zu bytes; round trip ok\n", back.device.c_str(),
                back.readings.size(), bytes.size());
    return 0;
}
