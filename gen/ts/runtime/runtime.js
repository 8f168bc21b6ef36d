// The SDP runtime for TypeScript and JavaScript: the decoder, the encoder,
// errors, message framing and streams that the generated code calls. It has
// no dependencies (ES2020: Node 18+, evergreen browsers). Generated code
// imports it as "./runtime.js"; its exports other than the public API below
// are internal (names starting with a lower-case letter and not documented
// in docs/typescript.md may change).
/** The default nesting limit of DecodeOptions.maxDepth. */
export const DEFAULT_MAX_DEPTH = 64;
/** The default maximum payload length of a MessageReader (64 MiB). */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;
/** The size of a message header: magic "SDP2", u16 type id, u32 length. */
export const MESSAGE_HEADER_SIZE = 10;
/** The type id of a hello, the schema check a stream may start with. */
export const HELLO_TYPE_ID = 0;
/** @internal A limit of the options: a positive number, else (0, negative, absent) the default. */
export function limit(x, def) {
    return x !== undefined && x > 0 ? x : def;
}
function joinPath(segs) {
    let p = "";
    for (let i = segs.length - 1; i >= 0; i--) {
        const s = segs[i];
        if (typeof s === "number") {
            p += "[" + s + "]";
        }
        else if (s !== "") {
            p += p === "" ? s : "." + s;
        }
    }
    return p;
}
/** A rejected input: the rule it breaks, where, and the value's path. */
export class DecodeError extends Error {
    constructor(rule, offset, detail) {
        super("");
        /** The field path of the value holding the problem (a.b[3].c); empty at the top level. */
        this.path = "";
        /** The type being decoded. */
        this.type = "";
        /** For a MessageReader: the index of the message in the stream, from 0 (a hello is one); else -1. */
        this.index = -1;
        /** For a MessageReader: the stream offset of the message's first byte (its header); else -1. */
        this.messageOffset = -1;
        /** For a MessageReader: whether the reader can go on with the next message. */
        this.skippable = false;
        /** @internal the path's segments, innermost first */
        this.segs = [];
        this.name = "DecodeError";
        this.rule = rule;
        this.offset = offset;
        this.detail = detail;
        this.layout();
    }
    /**
     * @internal Sets message to the layout of docs/api.md: "<rule> at offset
     * <offset> in <path>: <detail>", after "message <index> at stream offset
     * <start>: " for a stream (the offset then counts from the message's start).
     */
    layout() {
        const inMessage = this.index >= 0 && this.messageOffset >= 0;
        const off = inMessage ? this.offset - this.messageOffset : this.offset;
        let t = this.rule + " at offset " + off + (this.path === "" ? "" : " in " + this.path) + ": " + this.detail;
        if (inMessage)
            t = "message " + this.index + " at stream offset " + this.messageOffset + ": " + t;
        this.message = t;
    }
}
/**
 * A value that has no encoding: the rule it breaks and the value's path;
 * message reads "<rule> in <path>: <detail>" (docs/api.md).
 */
export class EncodeError extends Error {
    constructor(rule, detail, path = "") {
        super("");
        /** The field path of the offending value (a.b[3].c), as a decoder's; empty at the top level, "message" for a message's size. */
        this.path = "";
        /** @internal the path's segments, innermost first */
        this.segs = [];
        this.name = "EncodeError";
        this.rule = rule;
        this.detail = detail;
        this.path = path;
        this.layout();
    }
    /** @internal Sets message to "<rule> in <path>: <detail>" (or "<rule>: <detail>"). */
    layout() {
        this.message = this.rule + (this.path === "" ? "" : " in " + this.path) + ": " + this.detail;
    }
}
/** @internal Adds a path segment to an error unwinding through a field or element. */
export function at(e, seg) {
    if (e instanceof DecodeError || e instanceof EncodeError) {
        e.segs.push(seg);
    }
    return e;
}
/** @internal Completes an error leaving a top-level decode or encode. */
export function finish(e, type) {
    if (e instanceof DecodeError) {
        e.path = joinPath(e.segs);
        e.type = type;
        e.layout();
    }
    else if (e instanceof EncodeError) {
        if (e.segs.length > 0)
            e.path = joinPath(e.segs);
        e.layout();
    }
    return e;
}
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** @internal Bytes of any accepted input. */
export function bytesOf(b) {
    return b instanceof Uint8Array ? b : new Uint8Array(b);
}
const scratch = new DataView(new ArrayBuffer(8));
/** @internal An f32 NaN's bits as an f64 NaN with the same sign and payload (no quieting). */
function f32NaN(bits) {
    scratch.setUint32(4, (bits & 0x80000000) | 0x7ff00000 | ((bits & 0x7fffff) >>> 3), true);
    scratch.setUint32(0, (bits & 7) << 29, true);
    return scratch.getFloat64(0, true);
}
/** @internal The f32 bits of an f64 NaN, keeping its sign and the top of its payload. */
function f32Bits(v) {
    scratch.setFloat64(0, v, true);
    const hi = scratch.getUint32(4, true);
    const lo = scratch.getUint32(0, true);
    return ((hi & 0x80000000) | 0x7f800000 | ((hi & 0xfffff) << 3) | (lo >>> 29)) >>> 0;
}
/** @internal Reads an f32 at off of v, keeping NaN payloads bit for bit. */
export function getF32(v, off) {
    const x = v.getFloat32(off, true);
    return x === x ? x : f32NaN(v.getUint32(off, true));
}
/** @internal Writes an f32 at off of v, keeping NaN payloads bit for bit. */
export function setF32(v, off, x) {
    if (x === x) {
        v.setFloat32(off, x, true);
    }
    else {
        v.setUint32(off, f32Bits(x), true);
    }
}
// Strings of up to SHORT_DECODE bytes are decoded by hand, longer ones by
// TextDecoder; strings of up to SHORT_ENCODE UTF-16 units are encoded by
// hand, longer ones by TextEncoder.encodeInto. The crossovers were measured
// in Node 20 with gen/ts/bench/strings.mjs (docs/typescript.md).
const SHORT_DECODE = 8;
const SHORT_ENCODE = 16;
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();
/** @internal The decoder: reads one value from b, throwing DecodeError. */
export class Reader {
    constructor(b, off, opts, payload) {
        this.depth = 0;
        this.mem = 0;
        this.b = b;
        this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
        this.o = off;
        this.end = b.byteLength;
        this.maxDepth = limit(opts?.maxDepth, DEFAULT_MAX_DEPTH);
        this.memLimit = limit(opts?.memoryLimit, 32 * payload + 1048576);
        this.views = opts?.views ?? false;
    }
    fail(off, rule, msg) {
        this.o = this.end;
        throw new DecodeError(rule, off, msg);
    }
    truncated(need) {
        return this.fail(this.o, "truncated", "need " + need + " bytes, " + (this.end - this.o) + " left");
    }
    /** A fixed array of size-byte elements that the input ends inside. */
    truncatedElement(size) {
        const i = Math.floor((this.end - this.o) / size);
        this.o += i * size;
        try {
            return this.truncated(size);
        }
        catch (e) {
            throw at(e, i);
        }
    }
    enter() {
        if (++this.depth > this.maxDepth) {
            this.fail(this.o, "depth", "nesting deeper than " + this.maxDepth);
        }
    }
    trailing(type) {
        if (this.o !== this.end) {
            const e = new DecodeError("trailing", this.o, (this.end - this.o) + " bytes after the " + type);
            throw finish(e, type);
        }
    }
    u8() {
        const o = this.o;
        if (o >= this.end)
            this.truncated(1);
        this.o = o + 1;
        return this.b[o];
    }
    i8() {
        const o = this.o;
        if (o >= this.end)
            this.truncated(1);
        this.o = o + 1;
        return this.v.getInt8(o);
    }
    u16() {
        const o = this.o;
        if (this.end - o < 2)
            this.truncated(2);
        this.o = o + 2;
        return this.v.getUint16(o, true);
    }
    i16() {
        const o = this.o;
        if (this.end - o < 2)
            this.truncated(2);
        this.o = o + 2;
        return this.v.getInt16(o, true);
    }
    u32() {
        const o = this.o;
        if (this.end - o < 4)
            this.truncated(4);
        this.o = o + 4;
        return this.v.getUint32(o, true);
    }
    i32() {
        const o = this.o;
        if (this.end - o < 4)
            this.truncated(4);
        this.o = o + 4;
        return this.v.getInt32(o, true);
    }
    u64() {
        const o = this.o;
        if (this.end - o < 8)
            this.truncated(8);
        this.o = o + 8;
        return this.v.getBigUint64(o, true);
    }
    i64() {
        const o = this.o;
        if (this.end - o < 8)
            this.truncated(8);
        this.o = o + 8;
        return this.v.getBigInt64(o, true);
    }
    f32() {
        const o = this.o;
        if (this.end - o < 4)
            this.truncated(4);
        this.o = o + 4;
        return getF32(this.v, o);
    }
    f64() {
        const o = this.o;
        if (this.end - o < 8)
            this.truncated(8);
        this.o = o + 8;
        return this.v.getFloat64(o, true);
    }
    bool() {
        const o = this.o;
        if (o >= this.end)
            this.truncated(1);
        const x = this.b[o];
        if (x > 1)
            this.fail(o, "bool", "byte " + x + " is not a bool (0 or 1)");
        this.o = o + 1;
        return x === 1;
    }
    /** An optional's presence byte. */
    present() {
        const o = this.o;
        if (o >= this.end)
            this.truncated(1);
        const x = this.b[o];
        if (x > 1)
            this.fail(o, "presence", "presence byte " + x + " is not 0 or 1");
        this.o = o + 1;
        return x === 1;
    }
    /** An enum number at off that names no value. */
    badEnum(off, x, type) {
        return this.fail(off, "enum", x + " is not a value of " + type);
    }
    /** A union tag at off that names no variant. */
    badTag(off, x, type) {
        return this.fail(off, "union_tag", "tag " + x + " is not a variant of " + type);
    }
    /** An array count or string length, checked against what remains before anything is made. */
    count(min) {
        const o = this.o;
        if (this.end - o < 4)
            this.truncated(4);
        const n = this.v.getUint32(o, true);
        const left = this.end - o - 4;
        if (n * min > left) {
            this.fail(o, "count", "count " + n + " needs at least " + n * min + " bytes, " + left + " left");
        }
        this.o = o + 4;
        return n;
    }
    /** Charges n values of each bytes, counted at off, to the memory total. */
    charge(off, n, each) {
        if (n > 0 && n * each > this.memLimit - this.mem) {
            this.fail(off, "memory", n + " values of " + each + " bytes would exceed the memory limit of " + this.memLimit + " bytes");
        }
        this.mem += n * each;
    }
    str() {
        const o = this.o;
        const n = this.count(1);
        const s = this.o;
        this.o = s + n;
        if (n <= SHORT_DECODE) {
            const r = decodeShort(this.b, s, s + n);
            if (r === undefined)
                this.fail(o, "utf8", "the string is not valid UTF-8");
            return r;
        }
        try {
            return utf8Decoder.decode(this.b.subarray(s, s + n));
        }
        catch (e) {
            return this.fail(o, "utf8", "the string is not valid UTF-8");
        }
    }
    bytes() {
        const n = this.count(1);
        const s = this.o;
        this.o = s + n;
        return this.views ? this.b.subarray(s, s + n) : this.b.slice(s, s + n);
    }
    fixedBytes(n) {
        const s = this.o;
        if (this.end - s < n)
            this.truncatedElement(1);
        this.o = s + n;
        return this.views ? this.b.subarray(s, s + n) : this.b.slice(s, s + n);
    }
    /** n elements of a numeric kind: a view when asked for and aligned, else a copy. */
    numbers(type, n, kind) {
        const size = type.BYTES_PER_ELEMENT;
        const s = this.o;
        this.o = s + n * size;
        const abs = this.b.byteOffset + s;
        if (littleEndian) {
            if (this.views && abs % size === 0) {
                return new type(this.b.buffer, abs, n);
            }
            const out = new type(n);
            new Uint8Array(out.buffer).set(this.b.subarray(s, s + n * size));
            return out;
        }
        const out = new type(n);
        const get = getters[kind];
        for (let i = 0; i < n; i++)
            out[i] = get(this.v, s + i * size);
        return out;
    }
    /** A []T of numbers: a count, then the elements. */
    arrayNumbers(type, kind) {
        return this.numbers(type, this.count(type.BYTES_PER_ELEMENT), kind);
    }
    /** A [N]T of numbers. */
    fixedNumbers(type, n, kind) {
        if (this.end - this.o < n * type.BYTES_PER_ELEMENT)
            this.truncatedElement(type.BYTES_PER_ELEMENT);
        return this.numbers(type, n, kind);
    }
}
// Element readers and writers for big-endian hosts.
const getters = {
    i8: (v, o) => v.getInt8(o),
    u16: (v, o) => v.getUint16(o, true),
    i16: (v, o) => v.getInt16(o, true),
    u32: (v, o) => v.getUint32(o, true),
    i32: (v, o) => v.getInt32(o, true),
    u64: (v, o) => v.getBigUint64(o, true),
    i64: (v, o) => v.getBigInt64(o, true),
    f32: (v, o) => getF32(v, o),
    f64: (v, o) => v.getFloat64(o, true),
};
const setters = {
    i8: (v, o, x) => v.setInt8(o, x),
    u16: (v, o, x) => v.setUint16(o, x, true),
    i16: (v, o, x) => v.setInt16(o, x, true),
    u32: (v, o, x) => v.setUint32(o, x, true),
    i32: (v, o, x) => v.setInt32(o, x, true),
    u64: (v, o, x) => v.setBigUint64(o, x, true),
    i64: (v, o, x) => v.setBigInt64(o, x, true),
    f32: (v, o, x) => setF32(v, o, x),
    f64: (v, o, x) => v.setFloat64(o, x, true),
};
/**
 * @internal A present ??T: [x], in an array of tagged values (a literal
 * [x] of a double would be an array of doubles, which quiets signalling
 * NaNs in V8).
 */
export function tuple(x) {
    const t = [undefined];
    t[0] = x;
    return t;
}
/** @internal Decodes a whole input with fn. */
export function decodeTop(bytes, opts, fn, type) {
    const b = bytesOf(bytes);
    const r = new Reader(b, 0, opts, b.byteLength);
    let v;
    try {
        v = fn(r);
    }
    catch (e) {
        throw finish(e, type);
    }
    r.trailing(type);
    return v;
}
/** @internal Decodes the start of an input; returns the value and the bytes it used. */
export function decodePrefix(bytes, opts, fn, type) {
    const b = bytesOf(bytes);
    const r = new Reader(b, 0, opts, b.byteLength);
    try {
        return [fn(r), r.o];
    }
    catch (e) {
        throw finish(e, type);
    }
}
/** @internal Decodes a message's payload whose header readHeader checked. */
export function decodePayload(b, opts, fn, type) {
    const r = new Reader(b, MESSAGE_HEADER_SIZE, opts, b.byteLength - MESSAGE_HEADER_SIZE);
    let v;
    try {
        v = fn(r);
    }
    catch (e) {
        throw finish(e, type);
    }
    r.trailing(type);
    return v;
}
/** Strict UTF-8 of b[s:e] decoded by hand, or undefined if it is not UTF-8. */
function decodeShort(b, s, e) {
    let out = "";
    let i = s;
    while (i < e) {
        const c = b[i++];
        if (c < 0x80) {
            out += String.fromCharCode(c);
            continue;
        }
        let cp;
        if (c >= 0xc2 && c <= 0xdf) {
            if (i >= e)
                return undefined;
            const c1 = b[i++];
            if ((c1 & 0xc0) !== 0x80)
                return undefined;
            cp = ((c & 0x1f) << 6) | (c1 & 0x3f);
        }
        else if (c >= 0xe0 && c <= 0xef) {
            if (e - i < 2)
                return undefined;
            const c1 = b[i++];
            const c2 = b[i++];
            if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80)
                return undefined;
            if (c === 0xe0 && c1 < 0xa0)
                return undefined; // overlong
            if (c === 0xed && c1 >= 0xa0)
                return undefined; // a UTF-16 surrogate
            cp = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
        }
        else if (c >= 0xf0 && c <= 0xf4) {
            if (e - i < 3)
                return undefined;
            const c1 = b[i++];
            const c2 = b[i++];
            const c3 = b[i++];
            if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80)
                return undefined;
            if (c === 0xf0 && c1 < 0x90)
                return undefined; // overlong
            if (c === 0xf4 && c1 >= 0x90)
                return undefined; // above U+10FFFF
            cp = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
            cp -= 0x10000;
            out += String.fromCharCode(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
            continue;
        }
        else {
            return undefined;
        }
        out += String.fromCharCode(cp);
    }
    return out;
}
/** @internal The UTF-8 length of s (a lone surrogate counts 3; the encoder refuses it). */
export function utf8Length(s) {
    const n = s.length;
    let len = n;
    for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
            if (c < 0x800) {
                len += 1;
            }
            else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
                len += 2;
                i++;
            }
            else {
                len += 2;
            }
        }
    }
    return len;
}
const loneSurrogate = /\p{Surrogate}/u;
// Encoding. The encoder (the generated $e_ functions and Writer) detects a
// value that has no encoding cheaply, with checks folded into the writes,
// and throws UNENCODABLE (or whatever the JavaScript engine throws for it,
// say a TypeError reading a field of null); only then does the check walk
// (the generated $k_ functions and the k* functions below) walk the value in
// encoding order to find the first problem, its rule and its path.
/** @internal What the encoder throws for a value it cannot write; the check walk says why. */
export const UNENCODABLE = new EncodeError("type", "a value that has no encoding");
/** @internal Throws UNENCODABLE. */
export function bad() {
    throw UNENCODABLE;
}
// The encoder's checks of scalars: each returns its value when the type
// holds it, else throws UNENCODABLE. (x & 0xff) === x is false for a
// number out of range, a fraction, NaN, and anything that is not a number.
/** @internal */
export function cu8(x) {
    if ((x & 0xff) !== x)
        bad();
    return x;
}
/** @internal */
export function ci8(x) {
    if (((x << 24) >> 24) !== x)
        bad();
    return x;
}
/** @internal */
export function cu16(x) {
    if ((x & 0xffff) !== x)
        bad();
    return x;
}
/** @internal */
export function ci16(x) {
    if (((x << 16) >> 16) !== x)
        bad();
    return x;
}
/** @internal */
export function cu32(x) {
    if (x >>> 0 !== x)
        bad();
    return x;
}
/** @internal */
export function ci32(x) {
    if ((x | 0) !== x)
        bad();
    return x;
}
/** @internal */
export function cu64(x) {
    if (BigInt.asUintN(64, x) !== x)
        bad();
    return x;
}
/** @internal */
export function ci64(x) {
    if (BigInt.asIntN(64, x) !== x)
        bad();
    return x;
}
/** @internal */
export function cf64(x) {
    if (typeof x !== "number")
        bad();
    return x;
}
/** @internal */
export function cbool(x) {
    return x === true ? 1 : x === false ? 0 : bad();
}
/** @internal A struct's value must be an object. */
export function cobj(x) {
    if (typeof x !== "object" || x === null)
        bad();
}
/** @internal A present ??T must be [x]. */
export function ctuple(x) {
    if (!Array.isArray(x) || x.length !== 1)
        bad();
}
/** @internal The encoder: writes into b, whose size was computed beforehand. */
export class Writer {
    constructor(b, off) {
        this.b = b;
        this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
        this.o = off;
    }
    /** Reserves n bytes and returns their offset. */
    take(n) {
        const o = this.o;
        this.o = o + n;
        return o;
    }
    /** A byte the encoder itself chose (a presence byte, a union tag). */
    tag(x) { this.b[this.o++] = x; }
    u8(x) { this.b[this.o++] = cu8(x); }
    i8(x) { this.v.setInt8(this.o++, ci8(x)); }
    bool(x) { this.b[this.o++] = cbool(x); }
    u16(x) { this.v.setUint16(this.o, cu16(x), true); this.o += 2; }
    i16(x) { this.v.setInt16(this.o, ci16(x), true); this.o += 2; }
    u32(x) { this.v.setUint32(this.o, cu32(x), true); this.o += 4; }
    i32(x) { this.v.setInt32(this.o, ci32(x), true); this.o += 4; }
    u64(x) { this.v.setBigUint64(this.o, cu64(x), true); this.o += 8; }
    i64(x) { this.v.setBigInt64(this.o, ci64(x), true); this.o += 8; }
    f32(x) { setF32(this.v, this.o, cf64(x)); this.o += 4; }
    f64(x) { this.v.setFloat64(this.o, cf64(x), true); this.o += 8; }
    /** A u32 count (an array's length: a number that is not one fails). */
    count(n) {
        if (n >>> 0 !== n)
            bad();
        this.v.setUint32(this.o, n, true);
        this.o += 4;
    }
    /** An array's count (what is no array fails). */
    array(x) {
        if (!Array.isArray(x))
            bad();
        this.count(x.length);
    }
    str(s) {
        if (typeof s !== "string")
            bad();
        const o = this.o + 4;
        const b = this.b;
        let p = o;
        const n = s.length;
        if (n <= SHORT_ENCODE) {
            for (let i = 0; i < n; i++) {
                let c = s.charCodeAt(i);
                if (c < 0x80) {
                    b[p++] = c;
                }
                else if (c < 0x800) {
                    b[p++] = 0xc0 | (c >> 6);
                    b[p++] = 0x80 | (c & 0x3f);
                }
                else if (c >= 0xd800 && c <= 0xdfff) {
                    const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
                    if (c > 0xdbff || (d & 0xfc00) !== 0xdc00)
                        bad();
                    i++;
                    c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
                    b[p++] = 0xf0 | (c >> 18);
                    b[p++] = 0x80 | ((c >> 12) & 0x3f);
                    b[p++] = 0x80 | ((c >> 6) & 0x3f);
                    b[p++] = 0x80 | (c & 0x3f);
                }
                else {
                    b[p++] = 0xe0 | (c >> 12);
                    b[p++] = 0x80 | ((c >> 6) & 0x3f);
                    b[p++] = 0x80 | (c & 0x3f);
                }
            }
        }
        else {
            if (loneSurrogate.test(s))
                bad();
            p += utf8Encoder.encodeInto(s, b.subarray(o)).written;
        }
        this.v.setUint32(o - 4, p - o, true);
        this.o = p;
    }
    bytes(x) {
        if (!(x instanceof Uint8Array))
            bad();
        this.count(x.length);
        this.b.set(x, this.o);
        this.o += x.length;
    }
    /** Numbers of a typed array of type, little-endian. */
    numbers(x, type, kind) {
        if (!(x instanceof type))
            bad();
        const n = x.length;
        const size = type.BYTES_PER_ELEMENT;
        if (littleEndian) {
            this.b.set(new Uint8Array(x.buffer, x.byteOffset, n * size), this.o);
        }
        else {
            const set = setters[kind];
            for (let i = 0; i < n; i++)
                set(this.v, this.o + i * size, x[i]);
        }
        this.o += n * size;
    }
    /** A []T of numbers: the count, then the elements. */
    arrayNumbers(x, type, kind) {
        if (!(x instanceof type))
            bad();
        this.count(x.length);
        this.numbers(x, type, kind);
    }
    /** A [N]T of numbers. */
    fixedNumbers(x, type, n, kind) {
        if (!(x instanceof type) || x.length !== n)
            bad();
        this.numbers(x, type, kind);
    }
    /** A [N]u8. */
    fixedBytes(x, n) {
        if (!(x instanceof Uint8Array) || x.length !== n)
            bad();
        this.b.set(x, this.o);
        this.o += n;
    }
}
/** @internal Checks a fixed array's length (an array that is none fails too). */
export function fixedLength(x, n) {
    if (x.length !== n || !Array.isArray(x))
        bad();
}
/** @internal The size of a string's encoding. */
export function strSize(s) {
    return 4 + utf8Length(s);
}
/**
 * @internal The error for v, whose encoding failed with e: the check walk's
 * (rule and path), else (the walk finds nothing wrong) e itself.
 */
function refuse(e, v, check, type) {
    try {
        check(v);
    }
    catch (e2) {
        return finish(e2, type);
    }
    return e === UNENCODABLE ? new Error("sdp: the encoder refused a " + type + " the check walk accepts (a bug of the generated code)") : e;
}
/** @internal The size of v's encoding; throws the check walk's error where the size is no number. */
function sizeOf(v, size, check, type) {
    if (typeof size === "number")
        return size;
    let n;
    try {
        n = size(v);
    }
    catch (e) {
        throw refuse(e, v, check, type);
    }
    // NaN: a number where a string or array is (its length is undefined).
    if (!(n >= 0))
        throw refuse(UNENCODABLE, v, check, type);
    return n;
}
/** @internal A new buffer of n bytes; an encoding too large for the host is rule "size". */
function alloc(n) {
    try {
        return new Uint8Array(n);
    }
    catch (e) {
        if (e instanceof RangeError)
            throw new EncodeError("size", "an encoding of " + n + " bytes is larger than this host's largest Uint8Array");
        throw e;
    }
}
/** @internal encodedSize(): checks v (the check walk), then computes its size. */
export function encodedSize(v, size, check, type) {
    try {
        check(v);
    }
    catch (e) {
        throw finish(e, type);
    }
    return sizeOf(v, size, check, type);
}
/** @internal Encodes v into a new buffer with write. */
export function encodeNew(v, size, write, check, type) {
    const b = alloc(sizeOf(v, size, check, type));
    try {
        write(new Writer(b, 0), v);
    }
    catch (e) {
        throw refuse(e, v, check, type);
    }
    return b;
}
function tooSmall(buf, off, n, what) {
    return new EncodeError("size", "the buffer has " + Math.max(0, buf.byteLength - off) + " bytes from offset " + off + ", the " + what + " needs " + n);
}
/**
 * @internal Encodes v into buf at off; returns the bytes written. On an
 * error the bytes of buf from off may have been written.
 */
export function encodeAt(buf, off, v, size, write, check, type) {
    const n = sizeOf(v, size, check, type);
    if (!(off >= 0) || buf.byteLength - off < n) {
        // A value that has no encoding says so first.
        try {
            check(v);
        }
        catch (e) {
            throw finish(e, type);
        }
        throw tooSmall(buf, off, n, "value");
    }
    try {
        write(new Writer(buf, off), v);
    }
    catch (e) {
        throw refuse(e, v, check, type);
    }
    return n;
}
/** @internal The size of v framed as a message (checked as encodedSize checks). */
export function encodedMessageSize(v, size, check, type) {
    const n = encodedSize(v, size, check, type);
    if (n > 0xffffffff)
        throw payloadTooLarge(n);
    return MESSAGE_HEADER_SIZE + n;
}
function payloadTooLarge(n) {
    return new EncodeError("message", "a payload of " + n + " bytes is over the u32 limit of a message's length", "message");
}
/** @internal Encodes v as a message into a new buffer. */
export function encodeMessageNew(v, typeId, size, write, check, type) {
    const n = sizeOf(v, size, check, type);
    if (n > 0xffffffff)
        throw payloadTooLarge(n);
    const b = alloc(MESSAGE_HEADER_SIZE + n);
    try {
        const w = new Writer(b, 0);
        header(w, typeId, n);
        write(w, v);
    }
    catch (e) {
        throw refuse(e, v, check, type);
    }
    return b;
}
/** @internal Encodes v as a message into buf at off; returns the bytes written. */
export function encodeMessageAt(buf, off, v, typeId, size, write, check, type) {
    const p = sizeOf(v, size, check, type);
    if (p > 0xffffffff)
        throw payloadTooLarge(p);
    const n = MESSAGE_HEADER_SIZE + p;
    if (!(off >= 0) || buf.byteLength - off < n) {
        try {
            check(v);
        }
        catch (e) {
            throw finish(e, type);
        }
        throw tooSmall(buf, off, n, "message");
    }
    try {
        const w = new Writer(buf, off);
        header(w, typeId, p);
        write(w, v);
    }
    catch (e) {
        throw refuse(e, v, check, type);
    }
    return n;
}
// The check walk's checks: each throws the EncodeError of docs/wire-format.md
// ("Values that have no encoding") for a value its type cannot encode.
function describe(x) {
    if (x === null)
        return "null";
    switch (typeof x) {
        case "undefined": return "undefined";
        case "string": return "a string";
        case "number": return "the number " + x;
        case "bigint": return "the bigint " + x;
        case "boolean": return "a boolean";
        case "function": return "a function";
    }
    if (Array.isArray(x))
        return "an array";
    const c = x.constructor?.name;
    return typeof c === "string" && c !== "" && c !== "Object" ? "a " + c : "an object";
}
function wrongType(want, x) {
    return new EncodeError("type", "want " + want + ", not " + describe(x));
}
const intRanges = {
    u8: [0, 0xff], i8: [-0x80, 0x7f], u16: [0, 0xffff], i16: [-0x8000, 0x7fff],
    u32: [0, 0xffffffff], i32: [-0x80000000, 0x7fffffff],
};
/** @internal Checks an integer of kind (u8 ... i64). */
export function kint(x, kind) {
    if (kind === "u64" || kind === "i64") {
        if (typeof x !== "bigint")
            throw wrongType("a bigint (" + kind + ")", x);
        const ok = kind === "u64" ? BigInt.asUintN(64, x) === x : BigInt.asIntN(64, x) === x;
        if (!ok)
            throw new EncodeError("range", x + " is out of range for " + kind);
        return;
    }
    if (typeof x !== "number")
        throw wrongType("a number (" + kind + ")", x);
    if (!Number.isInteger(x))
        throw new EncodeError("type", x + " is not an integer (" + kind + ")");
    const [lo, hi] = intRanges[kind];
    if (x < lo || x > hi)
        throw new EncodeError("range", x + " is out of range for " + kind);
}
/** @internal Checks an f32 or f64. */
export function kfloat(x, kind) {
    if (typeof x !== "number")
        throw wrongType("a number (" + kind + ")", x);
}
/** @internal Checks a bool. */
export function kbool(x) {
    if (typeof x !== "boolean")
        throw wrongType("a boolean", x);
}
/** @internal Checks an enum's value: ok says whether it is one of type's numbers. */
export function kenum(x, ok, type) {
    if (typeof x !== "number")
        throw wrongType("a number (enum " + type + ")", x);
    if (!ok)
        throw new EncodeError("enum", x + " is not a value of " + type);
}
/** @internal Checks a string. */
export function kstr(x) {
    if (typeof x !== "string")
        throw wrongType("a string", x);
    if (loneSurrogate.test(x))
        throw new EncodeError("utf8", "the string holds a lone UTF-16 surrogate (it has no UTF-8)");
    const n = utf8Length(x);
    if (n > 0xffffffff)
        throw new EncodeError("count", "a string of " + n + " bytes is over the u32 limit");
}
function klength(x, fixed, what) {
    if (fixed >= 0 && x.length !== fixed)
        throw new EncodeError("length", "a fixed array of " + fixed + " elements holds " + x.length);
    if (x.length > 0xffffffff)
        throw new EncodeError("count", what + " of " + x.length + " elements is over the u32 limit");
}
/** @internal Checks a []u8 (fixed: -1) or a [N]u8 (fixed: N). */
export function kbytes(x, fixed) {
    if (!(x instanceof Uint8Array))
        throw wrongType("a Uint8Array", x);
    klength(x, fixed, "a byte array");
}
/** @internal Checks a typed array of numbers. */
export function knumbers(x, type, fixed) {
    if (!(x instanceof type))
        throw wrongType("a " + type.name, x);
    klength(x, fixed, "an array");
}
/** @internal Checks an array (its elements are checked by the caller). */
export function karray(x, fixed) {
    if (!Array.isArray(x))
        throw wrongType("an array", x);
    klength(x, fixed, "an array");
}
/** @internal Checks a present ??T: [x]. */
export function ktuple(x) {
    if (!Array.isArray(x) || x.length !== 1)
        throw wrongType("[x] (a present ??T)", x);
}
/** @internal Checks that a struct's value is an object. */
export function kobj(x, type) {
    if (typeof x !== "object" || x === null)
        throw wrongType("a struct " + type, x);
}
/** @internal A union value that is no object: it holds no variant. */
export function kunion(x, type) {
    if (typeof x !== "object" || x === null) {
        throw new EncodeError("union_tag", describe(x) + " holds no variant of " + type);
    }
}
/** @internal An EncodeError for a union value whose kind names no variant. */
export function badKind(x, type) {
    return new EncodeError("union_tag", "kind " + (typeof x === "string" ? JSON.stringify(x) : describe(x)) + " is not a variant of " + type);
}
// Messages.
const MAGIC = [0x53, 0x44, 0x50, 0x32];
/** @internal Writes a message header at w's offset (size was checked). */
export function header(w, typeId, size) {
    for (let i = 0; i < 4; i++)
        w.b[w.o + i] = MAGIC[i];
    w.v.setUint16(w.o + 4, typeId, true);
    w.v.setUint32(w.o + 6, size, true);
    w.o += MESSAGE_HEADER_SIZE;
}
function messageError(off, rule, msg) {
    const e = new DecodeError(rule, off, msg);
    e.path = "message";
    e.layout();
    return e;
}
/** @internal Checks a message header: the payload's type id (the payload is b[10:]). */
export function readHeader(b, want, wantName, known, schema) {
    if (b.byteLength < MESSAGE_HEADER_SIZE) {
        throw messageError(0, "truncated", "input ends inside the message header: need 10 bytes, " + b.byteLength + " remain");
    }
    for (let i = 0; i < 4; i++) {
        if (b[i] !== MAGIC[i])
            throw messageError(0, "message", "bad magic, want 53445032 (\"SDP2\")");
    }
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const id = v.getUint16(4, true);
    const name = known(id);
    if (name === undefined) {
        throw messageError(4, "message", want >= 0 ? "type id " + id + " is not " + wantName + " (id " + want + ")" : "type id " + id + " names no struct of schema " + schema);
    }
    if (want >= 0 && id !== want) {
        throw messageError(4, "message", "type id " + id + " is " + name + ", not " + wantName + " (id " + want + ")");
    }
    const n = v.getUint32(6, true);
    if (n !== b.byteLength - MESSAGE_HEADER_SIZE) {
        throw messageError(6, "message", "payload length is " + n + ", but " + (b.byteLength - MESSAGE_HEADER_SIZE) + " bytes follow the header");
    }
    return id;
}
/** @internal The hello message of a schema's structs (sorted by type id). */
export function encodeHello(structs) {
    const sorted = structs.slice().sort((a, b) => a.typeId - b.typeId);
    const b = new Uint8Array(MESSAGE_HEADER_SIZE + 4 + 10 * sorted.length);
    const w = new Writer(b, 0);
    header(w, HELLO_TYPE_ID, 4 + 10 * sorted.length);
    w.u32(sorted.length);
    for (const s of sorted) {
        w.u16(s.typeId);
        w.u64(s.fingerprint);
    }
    return b;
}
function hex16(x) {
    return x.toString(16).padStart(16, "0");
}
/** Checks a hello (b holds it whole); offsets are from its header's start. */
function checkHello(b, structs) {
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const p = b.byteLength - MESSAGE_HEADER_SIZE;
    if (p < 4) {
        return messageError(6, "message", "a hello's payload holds a u32 count and 10 bytes per struct; this one has " + p + " bytes");
    }
    const n = v.getUint32(MESSAGE_HEADER_SIZE, true);
    if (p !== 4 + 10 * n) {
        return messageError(6, "message", "a hello of " + n + " structs has a payload of " + p + " bytes, not " + (4 + 10 * n));
    }
    let prev = -1;
    for (let i = 0; i < n; i++) {
        const o = MESSAGE_HEADER_SIZE + 4 + 10 * i;
        const id = v.getUint16(o, true);
        if (id === 0 || id <= prev) {
            return messageError(o, "message", "hello entry " + i + " has type id " + id + ": type ids must be above 0 and strictly increasing");
        }
        prev = id;
        const mine = structs.find((s) => s.typeId === id);
        if (mine === undefined)
            continue;
        const theirs = v.getBigUint64(o + 2, true);
        if (theirs !== mine.fingerprint) {
            return messageError(o + 2, "schema", "the writer's schema has another version of " + mine.name + " (type id " + id + "): fingerprint " + hex16(theirs) + ", here " + hex16(mine.fingerprint) + "; run `sdp compat` on the two schemas");
        }
    }
    return undefined;
}
/** @internal Reads messages from a byte source; the generated MessageReader extends it. */
export class MessageReaderBase {
    constructor(source, opts, structs, decodePayload, schema) {
        this.structs = structs;
        this.decodePayload = decodePayload;
        this.schema = schema;
        /** Whether the stream began with a hello that this reader checked. */
        this.schemaChecked = false;
        this.store = new Uint8Array(0);
        this.pos = 0;
        this.len = 0;
        this.buf = new Uint8Array(0); // store[pos:len]
        this.start = 0; // the stream offset of buf[0]
        this.eof = false;
        this.index = 0;
        this.opts = opts ?? {};
        if (typeof source.getReader === "function") {
            const r = source.getReader();
            this.iter = {
                next: async () => {
                    const x = await r.read();
                    return x.done ? { done: true, value: undefined } : { done: false, value: x.value };
                },
            };
        }
        else if (Symbol.asyncIterator in source) {
            this.iter = source[Symbol.asyncIterator]();
        }
        else {
            this.iter = source[Symbol.iterator]();
        }
    }
    /**
     * Reads until buf holds n bytes or the source ends; reports whether it
     * holds them. The bytes read and not consumed live in store[pos:len],
     * which grows by doubling: small chunks cost no copy of what came before.
     */
    async fill(n) {
        while (this.len - this.pos < n && !this.eof) {
            const x = await this.iter.next();
            if (x.done) {
                this.eof = true;
                break;
            }
            const c = x.value;
            if (this.store.byteLength - this.len < c.byteLength) {
                const keep = this.len - this.pos;
                const grown = new Uint8Array(Math.max(2 * this.store.byteLength, keep + c.byteLength, 4096));
                grown.set(this.store.subarray(this.pos, this.len));
                this.store = grown;
                this.pos = 0;
                this.len = keep;
            }
            this.store.set(c, this.len);
            this.len += c.byteLength;
        }
        this.buf = this.store.subarray(this.pos, this.len);
        return this.len - this.pos >= n;
    }
    consume(n) {
        this.pos += n;
        this.start += n;
        if (this.pos === this.len) {
            this.pos = this.len = 0;
        }
        this.buf = this.store.subarray(this.pos, this.len);
    }
    fail(e, index, start, skippable) {
        e.index = index;
        e.messageOffset = start;
        e.skippable = skippable;
        e.layout();
        if (!skippable)
            this.failed = e;
        return e;
    }
    /**
     * The next message, or undefined at the end of the stream. Throws a
     * DecodeError with the message's index, its stream offset (messageOffset)
     * and the problem's (offset); after one
     * whose `skippable` is true the next read goes on with the next message,
     * after any other every read throws it again.
     */
    async read() {
        for (;;) {
            if (this.failed !== undefined)
                throw this.failed;
            const m = await this.readOne();
            if (m !== null)
                return m;
        }
    }
    /** One message; null for a hello that was read and checked. */
    async readOne() {
        const index = this.index;
        if (!(await this.fill(1)))
            return undefined;
        const off = this.start;
        const fail = (at, rule, msg, skippable) => this.fail(messageError(off + at, rule, msg), index, off, skippable);
        if (!(await this.fill(MESSAGE_HEADER_SIZE))) {
            throw fail(0, "truncated", "the stream ends inside a message header: " + this.buf.byteLength + " of 10 bytes", false);
        }
        const h = this.buf;
        const v = new DataView(h.buffer, h.byteOffset, MESSAGE_HEADER_SIZE);
        for (let i = 0; i < 4; i++) {
            if (h[i] !== MAGIC[i])
                throw fail(0, "message", "bad magic, want 53445032 (\"SDP2\")", false);
        }
        const n = v.getUint32(6, true);
        const id = v.getUint16(4, true);
        const max = limit(this.opts.maxSize, DEFAULT_MAX_MESSAGE_SIZE);
        const within = n <= max;
        const hello = id === HELLO_TYPE_ID && index === 0;
        // Whether the payload is complete, read only when the message could be skipped.
        const whole = async () => within && (await this.fill(MESSAGE_HEADER_SIZE + n));
        if (this.opts.requireHello && index === 0 && !hello) {
            throw fail(4, "schema", "the stream does not start with a hello (type id 0), and this reader requires one", false);
        }
        let bad;
        if (!hello) {
            const st = id === HELLO_TYPE_ID ? undefined : this.structs.find((s) => s.typeId === id);
            if (id === HELLO_TYPE_ID) {
                bad = "a hello (type id 0) may only be a stream's first message; this is message #" + index;
            }
            else if (st === undefined) {
                bad = "type id " + id + " names no struct of schema " + this.schema;
            }
        }
        if (bad !== undefined) {
            const ok = await whole();
            if (ok) {
                this.consume(MESSAGE_HEADER_SIZE + n);
                this.index++;
            }
            throw fail(4, "message", bad, ok);
        }
        if (!within) {
            throw fail(6, "message", "payload length " + n + " is over the reader's maximum of " + max, false);
        }
        if (!(await this.fill(MESSAGE_HEADER_SIZE + n))) {
            throw fail(MESSAGE_HEADER_SIZE, "truncated", "the stream ends inside a payload: the header declares " + n + " bytes, " + (this.buf.byteLength - MESSAGE_HEADER_SIZE) + " follow", false);
        }
        const msg = this.buf.slice(0, MESSAGE_HEADER_SIZE + n);
        this.consume(MESSAGE_HEADER_SIZE + n);
        this.index++;
        if (hello) {
            const e = checkHello(msg, this.structs);
            if (e !== undefined) {
                e.offset += off;
                throw this.fail(e, index, off, false);
            }
            this.schemaChecked = true;
            return null;
        }
        try {
            return this.decodePayload(id, msg.subarray(MESSAGE_HEADER_SIZE), this.opts);
        }
        catch (e) {
            if (e instanceof DecodeError) {
                e.offset += off + MESSAGE_HEADER_SIZE;
                throw this.fail(e, index, off, true);
            }
            throw e;
        }
    }
    async *[Symbol.asyncIterator]() {
        for (;;) {
            const m = await this.read();
            if (m === undefined)
                return;
            yield m;
        }
    }
}
/** @internal Writes messages to a sink; the generated MessageWriter extends it. */
export class MessageWriterBase {
    constructor(sink, structs, opts) {
        this.structs = structs;
        this.maxSize = limit(opts?.maxSize, DEFAULT_MAX_MESSAGE_SIZE);
        if (typeof sink === "function") {
            this.write = sink;
            this.writer = undefined;
        }
        else {
            const w = sink.getWriter();
            this.writer = w;
            this.write = (c) => w.write(c);
        }
    }
    /**
     * Writes one message; throws EncodeError, and writes nothing, for a value
     * that has no encoding or a payload over the maximum (rule "message").
     */
    async writeMessage(m) {
        const b = m.encodeMessage();
        const n = b.byteLength - MESSAGE_HEADER_SIZE;
        if (n > this.maxSize) {
            throw new EncodeError("message", "a payload of " + n + " bytes is over the writer's maximum of " + this.maxSize, "message");
        }
        await this.write(b);
    }
    /** Writes the schema's hello (the first message of a stream, if at all). */
    async writeHello() {
        await this.write(encodeHello(this.structs));
    }
    /** Closes a WritableStream sink (a callback needs nothing). */
    async close() {
        if (this.writer !== undefined)
            await this.writer.close();
    }
}
