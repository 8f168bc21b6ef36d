/*
 * Encodes a batch of sensor readings with the C code that
 * sdp_generate(... LANG c) generated from sensors.sdp, and decodes it back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors.h"

static sensors_str str(const char* s) {
    sensors_str out;
    out.data = s;
    out.len = (uint32_t)strlen(s);
    return out;
}

int main(void) {
    sensors_reading readings[2];
    sensors_batch batch, back;
    sensors_arena arena;
    uint8_t* buf;
    size_t size;
    int rc;

    memset(readings, 0, sizeof readings);
    readings[0].sensor = str("air");
    readings[0].unit = SENSORS_UNIT_CELSIUS;
    readings[0].value = 21.5;
    readings[0].taken_at = 1700000000u;
    readings[1].sensor = str("soil");
    readings[1].unit = SENSORS_UNIT_PERCENT;
    readings[1].value = 43.0;
    readings[1].taken_at = 1700000001u;
    sensors_batch_init(&batch);
    batch.device = str("greenhouse-1");
    batch.readings.data = readings;
    batch.readings.len = 2;
    batch.battery.has = true;
    batch.battery.value = 0.87f;

    size = sensors_batch_encoded_size(&batch);
    buf = (uint8_t*)malloc(size);
    if (buf == NULL || sensors_batch_encode(&batch, buf, size) != size) {
        return 1;
    }
    sensors_arena_init_heap(&arena);
    rc = sensors_batch_decode(buf, size, &back, &arena);
    if (rc != SENSORS_OK || back.readings.len != 2 || back.readings.data[1].value != 43.0) {
        fprintf(stderr, "round trip failed: %s\n", sensors_strerror(rc));
        return 1;
    }
    printf("C: %.*s sent %u readings in %zu bytes; round trip ok\n", (int)back.device.len, back.device.data,
           (unsigned)back.readings.len, size);
    sensors_arena_free(&arena);
    free(buf);
    return 0;
}
