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
    constructor(rule, offset, message) {
        super(message);
        /** The field path of the value holding the problem (a.b[3].c); empty at the top level. */
        this.path = "";
        /** The type being decoded. */
        this.type = "";
        /** For a MessageReader: the index of the message in the stream, from 0; else -1. */
        this.index = -1;
        /** For a MessageReader: whether the reader can go on with the next message. */
        this.skippable = false;
        /** @internal the path's segments, innermost first */
        this.segs = [];
        this.name = "DecodeError";
        this.rule = rule;
        this.offset = offset;
    }
    /** "<rule> @<offset> <path>: <message>" */
    toString() {
        return this.rule + " @" + this.offset + " " + this.path + ": " + this.message;
    }
}
/** A value that has no encoding: the message says why, path says where. */
export class EncodeError extends Error {
    constructor(message) {
        super(message);
        /** The field path of the offending value (a.b[3].c). */
        this.path = "";
        /** @internal */
        this.segs = [];
        this.name = "EncodeError";
    }
    toString() {
        return "EncodeError " + (this.path === "" ? "" : this.path + ": ") + this.message;
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
    }
    else if (e instanceof EncodeError) {
        e.path = joinPath(e.segs);
        if (e.path !== "") {
            e.message = e.path + ": " + e.message;
        }
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
        this.maxDepth = opts?.maxDepth || DEFAULT_MAX_DEPTH;
        this.memLimit = opts?.memoryLimit || 32 * payload + 1048576;
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
    u8(x) { this.v.setUint8(this.o++, x); }
    i8(x) { this.v.setInt8(this.o++, x); }
    bool(x) { this.b[this.o++] = x ? 1 : 0; }
    u16(x) { this.v.setUint16(this.o, x, true); this.o += 2; }
    i16(x) { this.v.setInt16(this.o, x, true); this.o += 2; }
    u32(x) { this.v.setUint32(this.o, x, true); this.o += 4; }
    i32(x) { this.v.setInt32(this.o, x, true); this.o += 4; }
    u64(x) { this.v.setBigUint64(this.o, x, true); this.o += 8; }
    i64(x) { this.v.setBigInt64(this.o, x, true); this.o += 8; }
    f32(x) { setF32(this.v, this.o, x); this.o += 4; }
    f64(x) { this.v.setFloat64(this.o, x, true); this.o += 8; }
    /** A u32 count, refusing one over the format's limit. */
    count(n) {
        if (n > 0xffffffff)
            throw new EncodeError("a length of " + n + " is over the u32 limit");
        this.u32(n);
    }
    str(s) {
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
                        throw new EncodeError("the string holds a lone UTF-16 surrogate (it has no UTF-8)");
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
                throw new EncodeError("the string holds a lone UTF-16 surrogate (it has no UTF-8)");
            p += utf8Encoder.encodeInto(s, b.subarray(o)).written;
        }
        this.v.setUint32(o - 4, p - o, true);
        this.o = p;
    }
    bytes(x) {
        this.count(x.length);
        this.b.set(x, this.o);
        this.o += x.length;
    }
    /** Numbers of a typed array, little-endian. */
    numbers(x, size, kind) {
        const n = x.length;
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
    arrayNumbers(x, size, kind) {
        this.count(x.length);
        this.numbers(x, size, kind);
    }
    /** A [N]T of numbers. */
    fixedNumbers(x, n, size, kind) {
        fixedLength(x, n);
        this.numbers(x, size, kind);
    }
    /** A [N]u8. */
    fixedBytes(x, n) {
        fixedLength(x, n);
        this.b.set(x, this.o);
        this.o += n;
    }
}
/** @internal Encodes v into a new buffer of size bytes with write. */
export function encodeNew(v, size, write, type) {
    const b = new Uint8Array(size);
    try {
        write(new Writer(b, 0), v);
    }
    catch (e) {
        throw finish(e, type);
    }
    return b;
}
/** @internal Encodes v into buf at off; returns the bytes written. */
export function encodeAt(buf, off, v, size, write, type) {
    if (!(off >= 0) || buf.byteLength - off < size) {
        throw new EncodeError("the buffer has " + Math.max(0, buf.byteLength - off) + " bytes from offset " + off + ", the value needs " + size);
    }
    try {
        write(new Writer(buf, off), v);
    }
    catch (e) {
        throw finish(e, type);
    }
    return size;
}
/** @internal Encodes v as a message into a new buffer. */
export function encodeMessageNew(v, typeId, size, write, type) {
    const b = new Uint8Array(MESSAGE_HEADER_SIZE + size);
    try {
        const w = new Writer(b, 0);
        header(w, typeId, size);
        write(w, v);
    }
    catch (e) {
        throw finish(e, type);
    }
    return b;
}
/** @internal Encodes v as a message into buf at off; returns the bytes written. */
export function encodeMessageAt(buf, off, v, typeId, size, write, type) {
    const n = MESSAGE_HEADER_SIZE + size;
    if (!(off >= 0) || buf.byteLength - off < n) {
        throw new EncodeError("the buffer has " + Math.max(0, buf.byteLength - off) + " bytes from offset " + off + ", the message needs " + n);
    }
    try {
        const w = new Writer(buf, off);
        header(w, typeId, size);
        write(w, v);
    }
    catch (e) {
        throw finish(e, type);
    }
    return n;
}
/** @internal An EncodeError for a number that names no value of an enum. */
export function badEnum(x, type) {
    return new EncodeError(String(x) + " is not a value of " + type);
}
/** @internal An EncodeError for a union value whose kind names no variant. */
export function badKind(x, type) {
    return new EncodeError("kind " + String(x) + " is not a variant of " + type);
}
/** @internal Checks a fixed array's length. */
export function fixedLength(x, n) {
    if (x.length !== n)
        throw new EncodeError("a fixed array of " + n + " elements has " + x.length);
}
/** @internal The size of a string's encoding. */
export function strSize(s) {
    return 4 + utf8Length(s);
}
// Messages.
const MAGIC = [0x53, 0x44, 0x50, 0x32];
/** @internal Writes a message header at w's offset. */
export function header(w, typeId, size) {
    if (size > 0xffffffff)
        throw new EncodeError("a payload of " + size + " bytes is over the u32 limit");
    for (let i = 0; i < 4; i++)
        w.b[w.o + i] = MAGIC[i];
    w.v.setUint16(w.o + 4, typeId, true);
    w.v.setUint32(w.o + 6, size, true);
    w.o += MESSAGE_HEADER_SIZE;
}
function messageError(off, rule, msg) {
    const e = new DecodeError(rule, off, msg);
    e.path = "message";
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
    fail(e, index, skippable) {
        e.index = index;
        e.skippable = skippable;
        if (!skippable)
            this.failed = e;
        return e;
    }
    /**
     * The next message, or undefined at the end of the stream. Throws a
     * DecodeError with the message's index and its stream offset; after one
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
        const fail = (at, rule, msg, skippable) => this.fail(messageError(off + at, rule, msg), index, skippable);
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
        const max = this.opts.maxSize ?? DEFAULT_MAX_MESSAGE_SIZE;
        const within = max === 0 || n <= max;
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
                throw this.fail(e, index, false);
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
                throw this.fail(e, index, true);
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
        this.maxSize = opts?.maxSize ?? DEFAULT_MAX_MESSAGE_SIZE;
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
    /** Writes one message; throws EncodeError for a payload over the maximum. */
    async writeMessage(m) {
        const b = m.encodeMessage();
        const n = b.byteLength - MESSAGE_HEADER_SIZE;
        if (this.maxSize !== 0 && n > this.maxSize) {
            throw new EncodeError("a payload of " + n + " bytes is over the writer's maximum of " + this.maxSize);
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
