//go:build cgo

/*
 * The C collector: fills a creg_plugin_registry (the code that
 * `sdp gen --lang c --package creg --out c ../go/registry.sdp` wrote into
 * c/; every generated name starts with creg_, so it links next to the C++
 * collector's registry:: code and any other schema's), encodes it with
 * creg_plugin_registry_encode_ex into a malloc'd buffer and hands that to
 * Go. The registry's strings and arrays live in one malloc'd block that is
 * freed before returning: the encoding copies everything it needs.
 */

#include "collector.h"
#include "c/creg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const vendors[] = {"ACME", "Z\xc3\xb6lzer DSP", "FabFilter"};
static const char* const units[] = {"dB", "Hz", "%", "\xc2\xb5s"};

static sdpffi_result failure(int32_t status, const char* message) {
    sdpffi_result r;
    memset(&r, 0, sizeof r);
    r.status = status;
    snprintf(r.message, sizeof r.message, "%s", message);
    return r;
}

static creg_str str_of(const char* s) {
    creg_str v;
    v.data = s;
    v.len = (uint32_t)strlen(s);
    return v;
}

/* Text for the registry's strings: 64 bytes per string is plenty here. */
enum { TEXT = 64 };

sdpffi_result sdpffi_c_collect(uint32_t plugin_count, int corrupt) {
    uint32_t i, j, params = 0;
    for (i = 0; i < plugin_count; i++) {
        params += 22 + i % 17;
    }
    /* One block: plugins, parameters, then the text of their strings. */
    size_t plugins_size = (size_t)plugin_count * sizeof(creg_plugin);
    size_t params_size = (size_t)params * sizeof(creg_parameter);
    size_t text_size = ((size_t)plugin_count * 2 + (size_t)params * 2) * TEXT;
    char* block = malloc(plugins_size + params_size + text_size + 1);
    if (block == NULL) {
        return failure(SDPFFI_ERR_NOMEM, "malloc failed");
    }
    creg_plugin* plugins = (creg_plugin*)block;
    creg_parameter* all_params = (creg_parameter*)(block + plugins_size);
    char* text = block + plugins_size + params_size;

    creg_parameter* q = all_params;
    for (i = 0; i < plugin_count; i++) {
        creg_plugin* p = &plugins[i];
        creg_plugin_init(p);
        snprintf(text, TEXT, "Plugin %u", (unsigned)i);
        p->name = str_of(text);
        text += TEXT;
        p->manufacturer_id = str_of(vendors[i % 3]);
        p->component_type = str_of("aufx");
        snprintf(text, TEXT, "p%03u", (unsigned)i);
        p->component_subtype = str_of(text);
        text += TEXT;
        uint32_t n = 22 + i % 17;
        p->parameters.data = q;
        p->parameters.len = n;
        for (j = 0; j < n; j++, q++) {
            creg_parameter_init(q);
            q->address = ((uint64_t)i << 32) | j;
            snprintf(text, TEXT, "Param %u", (unsigned)j);
            q->display_name = str_of(text);
            text += TEXT;
            snprintf(text, TEXT, "p%u.%u", (unsigned)i, (unsigned)j);
            q->identifier = str_of(text);
            text += TEXT;
            q->unit = str_of(units[j % 4]);
            q->min_value = -(float)j;
            q->max_value = (float)(j + 1);
            q->default_value = 0.5f * (float)j;
            q->current_value = 0.25f * (float)i;
            q->raw_flags = i * 1000 + j;
            q->is_writable = j % 3 != 0;
            q->can_ramp = j % 2 == 0;
        }
    }
    if (corrupt && plugin_count > 0) {
        plugins[plugin_count - 1].name = str_of("bad \xff name"); /* not UTF-8 */
    }

    creg_plugin_registry reg;
    creg_plugin_registry_init(&reg);
    reg.plugins.data = plugin_count > 0 ? plugins : NULL;
    reg.plugins.len = plugin_count;
    reg.total_plugin_count = plugin_count;
    reg.total_parameter_count = params;

    /*
     * _encode_ex with no buffer tells the size (CREG_ERR_BUFFER, res.written
     * is the size needed) or that the value cannot be encoded
     * (CREG_ERR_ENCODE, with the rule and field path in res); then encode
     * into a buffer of exactly that size.
     */
    creg_encode_result res;
    int rc = creg_plugin_registry_encode_ex(&reg, NULL, 0, &res);
    size_t need = res.written;
    sdpffi_result r;
    memset(&r, 0, sizeof r);
    if (rc == CREG_ERR_BUFFER) {
        uint8_t* buf = malloc(need > 0 ? need : 1);
        if (buf == NULL) {
            free(block);
            return failure(SDPFFI_ERR_NOMEM, "malloc failed");
        }
        rc = creg_plugin_registry_encode_ex(&reg, buf, need, &res);
        if (rc == CREG_OK) {
            r.data = buf;
            r.len = res.written;
        } else {
            free(buf);
        }
    }
    free(block);
    if (rc != CREG_OK) {
        char msg[sizeof r.message];
        if (rc == CREG_ERR_ENCODE) {
            /* "<rule> in <path>: <message>", as every language words it */
            creg_encode_error_text(&res, msg, sizeof msg);
        } else {
            snprintf(msg, sizeof msg, "creg_plugin_registry_encode_ex: %s (%d)", creg_strerror(rc), rc);
        }
        return failure(rc == CREG_ERR_ENCODE ? SDPFFI_ERR_ENCODE : SDPFFI_ERR_INTERNAL, msg);
    }
    r.status = SDPFFI_OK;
    return r;
}

int32_t sdpffi_c_summarize(const uint8_t* data, size_t len, uint32_t* plugins, uint32_t* parameters, char* message,
                           size_t message_cap) {
    /*
     * Decoded strings and arrays live in the arena, not in the input: the
     * caller's buffer may go away once decode returns. Freeing the arena
     * frees the whole value; a long-lived core would keep one arena and
     * reset it before each message instead.
     */
    creg_arena arena;
    creg_arena_init_heap(&arena);
    creg_plugin_registry reg;
    creg_decode_result res;
    int rc = creg_plugin_registry_decode_ex(data, len, &reg, &arena, NULL, &res);
    if (rc != CREG_OK) {
        snprintf(message, message_cap, "%s at byte %lu (%s)", creg_strerror(rc), (unsigned long)res.offset,
                 res.path[0] != '\0' ? res.path : "the registry");
        creg_arena_free(&arena);
        return SDPFFI_ERR_DECODE;
    }
    uint32_t i, n = 0;
    for (i = 0; i < reg.plugins.len; i++) {
        n += reg.plugins.data[i].parameters.len;
    }
    *plugins = reg.plugins.len;
    *parameters = n;
    if (message_cap > 0) {
        message[0] = '\0';
    }
    creg_arena_free(&arena);
    return SDPFFI_OK;
}
