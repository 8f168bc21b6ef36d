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

/** The rules of docs/wire-format.md a decoder reports by name. */
export type Rule =
  | "truncated" | "trailing" | "bool" | "presence" | "enum" | "union_tag"
  | "utf8" | "count" | "depth" | "message" | "memory" | "schema";

/** Options of every decode. */
export interface DecodeOptions {
  /** Nesting limit (0, negative or absent: 64): the top-level struct is at depth 1. */
  readonly maxDepth?: number;
  /** Memory limit in bytes (0, negative or absent: 32 × input length + 1 MiB). */
  readonly memoryLimit?: number;
  /**
   * Numeric arrays become views of the input instead of copies where the
   * input is suitably aligned (the decoded value then shares the input's
   * memory; []u8 is always a view with this option).
   */
  readonly views?: boolean;
}

/** @internal A limit of the options: a positive number, else (0, negative, absent) the default. */
export function limit(x: number | undefined, def: number): number {
  return x !== undefined && x > 0 ? x : def;
}

function joinPath(segs: readonly (string | number)[]): string {
  let p = "";
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    if (typeof s === "number") {
      p += "[" + s + "]";
    } else if (s !== "") {
      p += p === "" ? s : "." + s;
    }
  }
  return p;
}

/** A rejected input: the rule it breaks, where, and the value's path. */
export class DecodeError extends Error {
  /** The broken rule of docs/wire-format.md. */
  readonly rule: Rule;
  /** The byte offset of the problem, from the start of the input (of the stream for a MessageReader). */
  offset: number;
  /** The field path of the value holding the problem (a.b[3].c); empty at the top level. */
  path = "";
  /** The type being decoded. */
  type = "";
  /** For a MessageReader: the index of the message in the stream, from 0 (a hello is one); else -1. */
  index = -1;
  /** For a MessageReader: the stream offset of the message's first byte (its header); else -1. */
  messageOffset = -1;
  /** For a MessageReader: whether the reader can go on with the next message. */
  skippable = false;
  /** What is wrong, in words: the message without the rule, offset and path. */
  readonly detail: string;
  /** @internal the path's segments, innermost first */
  segs: (string | number)[] = [];

  constructor(rule: Rule, offset: number, detail: string) {
    super("");
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
  layout(): void {
    const inMessage = this.index >= 0 && this.messageOffset >= 0;
    const off = inMessage ? this.offset - this.messageOffset : this.offset;
    let t = this.rule + " at offset " + off + (this.path === "" ? "" : " in " + this.path) + ": " + this.detail;
    if (inMessage) t = "message " + this.index + " at stream offset " + this.messageOffset + ": " + t;
    this.message = t;
  }
}

/** The rules of docs/wire-format.md ("Values that have no encoding") an encoder reports by name. */
export type EncodeRule =
  | "enum" | "union_tag" | "utf8" | "length" | "count" | "range" | "type" | "size" | "message";

/**
 * A value that has no encoding: the rule it breaks and the value's path;
 * message reads "<rule> in <path>: <detail>" (docs/api.md).
 */
export class EncodeError extends Error {
  /** The broken rule of docs/wire-format.md ("Values that have no encoding"). */
  readonly rule: EncodeRule;
  /** The field path of the offending value (a.b[3].c), as a decoder's; empty at the top level, "message" for a message's size. */
  path = "";
  /** What is wrong, in words: the message without the rule and path. */
  readonly detail: string;
  /** @internal the path's segments, innermost first */
  segs: (string | number)[] = [];

  constructor(rule: EncodeRule, detail: string, path = "") {
    super("");
    this.name = "EncodeError";
    this.rule = rule;
    this.detail = detail;
    this.path = path;
    this.layout();
  }

  /** @internal Sets message to "<rule> in <path>: <detail>" (or "<rule>: <detail>"). */
  layout(): void {
    this.message = this.rule + (this.path === "" ? "" : " in " + this.path) + ": " + this.detail;
  }
}

/** @internal Adds a path segment to an error unwinding through a field or element. */
export function at(e: unknown, seg: string | number): unknown {
  if (e instanceof DecodeError || e instanceof EncodeError) {
    e.segs.push(seg);
  }
  return e;
}

/** @internal Completes an error leaving a top-level decode or encode. */
export function finish(e: unknown, type: string): unknown {
  if (e instanceof DecodeError) {
    e.path = joinPath(e.segs);
    e.type = type;
    e.layout();
  } else if (e instanceof EncodeError) {
    if (e.segs.length > 0) e.path = joinPath(e.segs);
    e.layout();
  }
  return e;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** @internal Bytes of any accepted input. */
export function bytesOf(b: Uint8Array | ArrayBuffer): Uint8Array {
  return b instanceof Uint8Array ? b : new Uint8Array(b);
}

const scratch = new DataView(new ArrayBuffer(8));

/** @internal An f32 NaN's bits as an f64 NaN with the same sign and payload (no quieting). */
function f32NaN(bits: number): number {
  scratch.setUint32(4, (bits & 0x80000000) | 0x7ff00000 | ((bits & 0x7fffff) >>> 3), true);
  scratch.setUint32(0, (bits & 7) << 29, true);
  return scratch.getFloat64(0, true);
}

/** @internal The f32 bits of an f64 NaN, keeping its sign and the top of its payload. */
function f32Bits(v: number): number {
  scratch.setFloat64(0, v, true);
  const hi = scratch.getUint32(4, true);
  const lo = scratch.getUint32(0, true);
  return ((hi & 0x80000000) | 0x7f800000 | ((hi & 0xfffff) << 3) | (lo >>> 29)) >>> 0;
}

/** @internal Reads an f32 at off of v, keeping NaN payloads bit for bit. */
export function getF32(v: DataView, off: number): number {
  const x = v.getFloat32(off, true);
  return x === x ? x : f32NaN(v.getUint32(off, true));
}

/** @internal Writes an f32 at off of v, keeping NaN payloads bit for bit. */
export function setF32(v: DataView, off: number, x: number): void {
  if (x === x) {
    v.setFloat32(off, x, true);
  } else {
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

/** @internal A typed-array constructor of the numeric element kinds. */
export interface NumbersType<T> {
  readonly BYTES_PER_ELEMENT: number;
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
}

/** @internal The decoder: reads one value from b, throwing DecodeError. */
export class Reader {
  readonly b: Uint8Array;
  readonly v: DataView;
  o: number;
  readonly end: number;
  depth = 0;
  readonly maxDepth: number;
  mem = 0;
  readonly memLimit: number;
  readonly views: boolean;

  constructor(b: Uint8Array, off: number, opts: DecodeOptions | undefined, payload: number) {
    this.b = b;
    this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.o = off;
    this.end = b.byteLength;
    this.maxDepth = limit(opts?.maxDepth, DEFAULT_MAX_DEPTH);
    this.memLimit = limit(opts?.memoryLimit, 32 * payload + 1048576);
    this.views = opts?.views ?? false;
  }

  fail(off: number, rule: Rule, msg: string): never {
    this.o = this.end;
    throw new DecodeError(rule, off, msg);
  }

  truncated(need: number): never {
    return this.fail(this.o, "truncated", "need " + need + " bytes, " + (this.end - this.o) + " left");
  }

  /** A fixed array of size-byte elements that the input ends inside. */
  truncatedElement(size: number): never {
    const i = Math.floor((this.end - this.o) / size);
    this.o += i * size;
    try {
      return this.truncated(size);
    } catch (e) {
      throw at(e, i);
    }
  }

  enter(): void {
    if (++this.depth > this.maxDepth) {
      this.fail(this.o, "depth", "nesting deeper than " + this.maxDepth);
    }
  }

  trailing(type: string): void {
    if (this.o !== this.end) {
      const e = new DecodeError("trailing", this.o, (this.end - this.o) + " bytes after the " + type);
      throw finish(e, type);
    }
  }

  u8(): number {
    const o = this.o;
    if (o >= this.end) this.truncated(1);
    this.o = o + 1;
    return this.b[o]!;
  }
  i8(): number {
    const o = this.o;
    if (o >= this.end) this.truncated(1);
    this.o = o + 1;
    return this.v.getInt8(o);
  }
  u16(): number {
    const o = this.o;
    if (this.end - o < 2) this.truncated(2);
    this.o = o + 2;
    return this.v.getUint16(o, true);
  }
  i16(): number {
    const o = this.o;
    if (this.end - o < 2) this.truncated(2);
    this.o = o + 2;
    return this.v.getInt16(o, true);
  }
  u32(): number {
    const o = this.o;
    if (this.end - o < 4) this.truncated(4);
    this.o = o + 4;
    return this.v.getUint32(o, true);
  }
  i32(): number {
    const o = this.o;
    if (this.end - o < 4) this.truncated(4);
    this.o = o + 4;
    return this.v.getInt32(o, true);
  }
  u64(): bigint {
    const o = this.o;
    if (this.end - o < 8) this.truncated(8);
    this.o = o + 8;
    return this.v.getBigUint64(o, true);
  }
  i64(): bigint {
    const o = this.o;
    if (this.end - o < 8) this.truncated(8);
    this.o = o + 8;
    return this.v.getBigInt64(o, true);
  }
  f32(): number {
    const o = this.o;
    if (this.end - o < 4) this.truncated(4);
    this.o = o + 4;
    return getF32(this.v, o);
  }
  f64(): number {
    const o = this.o;
    if (this.end - o < 8) this.truncated(8);
    this.o = o + 8;
    return this.v.getFloat64(o, true);
  }
  bool(): boolean {
    const o = this.o;
    if (o >= this.end) this.truncated(1);
    const x = this.b[o]!;
    if (x > 1) this.fail(o, "bool", "byte " + x + " is not a bool (0 or 1)");
    this.o = o + 1;
    return x === 1;
  }

  /** An optional's presence byte. */
  present(): boolean {
    const o = this.o;
    if (o >= this.end) this.truncated(1);
    const x = this.b[o]!;
    if (x > 1) this.fail(o, "presence", "presence byte " + x + " is not 0 or 1");
    this.o = o + 1;
    return x === 1;
  }

  /** An enum number at off that names no value. */
  badEnum(off: number, x: number, type: string): never {
    return this.fail(off, "enum", x + " is not a value of " + type);
  }

  /** A union tag at off that names no variant. */
  badTag(off: number, x: number, type: string): never {
    return this.fail(off, "union_tag", "tag " + x + " is not a variant of " + type);
  }

  /** An array count or string length, checked against what remains before anything is made. */
  count(min: number): number {
    const o = this.o;
    if (this.end - o < 4) this.truncated(4);
    const n = this.v.getUint32(o, true);
    const left = this.end - o - 4;
    if (n * min > left) {
      this.fail(o, "count", "count " + n + " needs at least " + n * min + " bytes, " + left + " left");
    }
    this.o = o + 4;
    return n;
  }

  /** Charges n values of each bytes, counted at off, to the memory total. */
  charge(off: number, n: number, each: number): void {
    if (n > 0 && n * each > this.memLimit - this.mem) {
      this.fail(off, "memory", n + " values of " + each + " bytes would exceed the memory limit of " + this.memLimit + " bytes");
    }
    this.mem += n * each;
  }

  str(): string {
    const o = this.o;
    const n = this.count(1);
    const s = this.o;
    this.o = s + n;
    if (n <= SHORT_DECODE) {
      const r = decodeShort(this.b, s, s + n);
      if (r === undefined) this.fail(o, "utf8", "the string is not valid UTF-8");
      return r;
    }
    try {
      return utf8Decoder.decode(this.b.subarray(s, s + n));
    } catch (e) {
      return this.fail(o, "utf8", "the string is not valid UTF-8");
    }
  }

  bytes(): Uint8Array {
    const n = this.count(1);
    const s = this.o;
    this.o = s + n;
    return this.views ? this.b.subarray(s, s + n) : this.b.slice(s, s + n);
  }

  fixedBytes(n: number): Uint8Array {
    const s = this.o;
    if (this.end - s < n) this.truncatedElement(1);
    this.o = s + n;
    return this.views ? this.b.subarray(s, s + n) : this.b.slice(s, s + n);
  }

  /** n elements of a numeric kind: a view when asked for and aligned, else a copy. */
  numbers<T>(type: NumbersType<T>, n: number, kind: NumberKind): T {
    const size = type.BYTES_PER_ELEMENT;
    const s = this.o;
    this.o = s + n * size;
    const abs = this.b.byteOffset + s;
    if (littleEndian) {
      if (this.views && abs % size === 0) {
        return new type(this.b.buffer as ArrayBuffer, abs, n);
      }
      const out = new type(n);
      new Uint8Array((out as unknown as Uint8Array).buffer).set(this.b.subarray(s, s + n * size));
      return out;
    }
    const out = new type(n) as unknown as { [i: number]: number | bigint };
    const get = getters[kind];
    for (let i = 0; i < n; i++) out[i] = get(this.v, s + i * size);
    return out as unknown as T;
  }

  /** A []T of numbers: a count, then the elements. */
  arrayNumbers<T>(type: NumbersType<T>, kind: NumberKind): T {
    return this.numbers(type, this.count(type.BYTES_PER_ELEMENT), kind);
  }

  /** A [N]T of numbers. */
  fixedNumbers<T>(type: NumbersType<T>, n: number, kind: NumberKind): T {
    if (this.end - this.o < n * type.BYTES_PER_ELEMENT) this.truncatedElement(type.BYTES_PER_ELEMENT);
    return this.numbers(type, n, kind);
  }
}

/** @internal The numeric element kinds of typed arrays. */
export type NumberKind = "i8" | "u16" | "i16" | "u32" | "i32" | "u64" | "i64" | "f32" | "f64";

// Element readers and writers for big-endian hosts.
const getters: { readonly [k in NumberKind]: (v: DataView, o: number) => number | bigint } = {
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
const setters: { readonly [k in NumberKind]: (v: DataView, o: number, x: number | bigint) => void } = {
  i8: (v, o, x) => v.setInt8(o, x as number),
  u16: (v, o, x) => v.setUint16(o, x as number, true),
  i16: (v, o, x) => v.setInt16(o, x as number, true),
  u32: (v, o, x) => v.setUint32(o, x as number, true),
  i32: (v, o, x) => v.setInt32(o, x as number, true),
  u64: (v, o, x) => v.setBigUint64(o, x as bigint, true),
  i64: (v, o, x) => v.setBigInt64(o, x as bigint, true),
  f32: (v, o, x) => setF32(v, o, x as number),
  f64: (v, o, x) => v.setFloat64(o, x as number, true),
};

/**
 * @internal A present ??T: [x], in an array of tagged values (a literal
 * [x] of a double would be an array of doubles, which quiets signalling
 * NaNs in V8).
 */
export function tuple<T>(x: T): [T] {
  const t: [T | undefined] = [undefined];
  t[0] = x;
  return t as [T];
}

/** @internal Decodes a whole input with fn. */
export function decodeTop<T>(bytes: Uint8Array | ArrayBuffer, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): T {
  const b = bytesOf(bytes);
  const r = new Reader(b, 0, opts, b.byteLength);
  let v: T;
  try {
    v = fn(r);
  } catch (e) {
    throw finish(e, type);
  }
  r.trailing(type);
  return v;
}

/** @internal Decodes the start of an input; returns the value and the bytes it used. */
export function decodePrefix<T>(bytes: Uint8Array | ArrayBuffer, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): [T, number] {
  const b = bytesOf(bytes);
  const r = new Reader(b, 0, opts, b.byteLength);
  try {
    return [fn(r), r.o];
  } catch (e) {
    throw finish(e, type);
  }
}

/** @internal Decodes a message's payload whose header readHeader checked. */
export function decodePayload<T>(b: Uint8Array, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): T {
  const r = new Reader(b, MESSAGE_HEADER_SIZE, opts, b.byteLength - MESSAGE_HEADER_SIZE);
  let v: T;
  try {
    v = fn(r);
  } catch (e) {
    throw finish(e, type);
  }
  r.trailing(type);
  return v;
}

/** Strict UTF-8 of b[s:e] decoded by hand, or undefined if it is not UTF-8. */
function decodeShort(b: Uint8Array, s: number, e: number): string | undefined {
  let out = "";
  let i = s;
  while (i < e) {
    const c = b[i++]!;
    if (c < 0x80) {
      out += String.fromCharCode(c);
      continue;
    }
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) {
      if (i >= e) return undefined;
      const c1 = b[i++]!;
      if ((c1 & 0xc0) !== 0x80) return undefined;
      cp = ((c & 0x1f) << 6) | (c1 & 0x3f);
    } else if (c >= 0xe0 && c <= 0xef) {
      if (e - i < 2) return undefined;
      const c1 = b[i++]!;
      const c2 = b[i++]!;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return undefined;
      if (c === 0xe0 && c1 < 0xa0) return undefined; // overlong
      if (c === 0xed && c1 >= 0xa0) return undefined; // a UTF-16 surrogate
      cp = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (e - i < 3) return undefined;
      const c1 = b[i++]!;
      const c2 = b[i++]!;
      const c3 = b[i++]!;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return undefined;
      if (c === 0xf0 && c1 < 0x90) return undefined; // overlong
      if (c === 0xf4 && c1 >= 0x90) return undefined; // above U+10FFFF
      cp = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
      cp -= 0x10000;
      out += String.fromCharCode(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      continue;
    } else {
      return undefined;
    }
    out += String.fromCharCode(cp);
  }
  return out;
}

/** @internal The UTF-8 length of s (a lone surrogate counts 3; the encoder refuses it). */
export function utf8Length(s: string): number {
  const n = s.length;
  let len = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      if (c < 0x800) {
        len += 1;
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        len += 2;
        i++;
      } else {
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
export function bad(): never {
  throw UNENCODABLE;
}

// The encoder's checks of scalars: each returns its value when the type
// holds it, else throws UNENCODABLE. (x & 0xff) === x is false for a
// number out of range, a fraction, NaN, and anything that is not a number.

/** @internal */
export function cu8(x: number): number {
  if ((x & 0xff) !== x) bad();
  return x;
}
/** @internal */
export function ci8(x: number): number {
  if (((x << 24) >> 24) !== x) bad();
  return x;
}
/** @internal */
export function cu16(x: number): number {
  if ((x & 0xffff) !== x) bad();
  return x;
}
/** @internal */
export function ci16(x: number): number {
  if (((x << 16) >> 16) !== x) bad();
  return x;
}
/** @internal */
export function cu32(x: number): number {
  if (x >>> 0 !== x) bad();
  return x;
}
/** @internal */
export function ci32(x: number): number {
  if ((x | 0) !== x) bad();
  return x;
}
/** @internal */
export function cu64(x: bigint): bigint {
  if (BigInt.asUintN(64, x) !== x) bad();
  return x;
}
/** @internal */
export function ci64(x: bigint): bigint {
  if (BigInt.asIntN(64, x) !== x) bad();
  return x;
}
/** @internal */
export function cf64(x: number): number {
  if (typeof x !== "number") bad();
  return x;
}
/** @internal */
export function cbool(x: boolean): number {
  return x === true ? 1 : x === false ? 0 : bad();
}
/** @internal A struct's value must be an object. */
export function cobj(x: object): void {
  if (typeof x !== "object" || x === null) bad();
}

/** @internal A present ??T must be [x]. */
export function ctuple(x: unknown): void {
  if (!Array.isArray(x) || x.length !== 1) bad();
}

/** @internal The encoder: writes into b, whose size was computed beforehand. */
export class Writer {
  readonly b: Uint8Array;
  readonly v: DataView;
  o: number;

  constructor(b: Uint8Array, off: number) {
    this.b = b;
    this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.o = off;
  }

  /** Reserves n bytes and returns their offset. */
  take(n: number): number {
    const o = this.o;
    this.o = o + n;
    return o;
  }

  /** A byte the encoder itself chose (a presence byte, a union tag). */
  tag(x: number): void { this.b[this.o++] = x; }
  u8(x: number): void { this.b[this.o++] = cu8(x); }
  i8(x: number): void { this.v.setInt8(this.o++, ci8(x)); }
  bool(x: boolean): void { this.b[this.o++] = cbool(x); }
  u16(x: number): void { this.v.setUint16(this.o, cu16(x), true); this.o += 2; }
  i16(x: number): void { this.v.setInt16(this.o, ci16(x), true); this.o += 2; }
  u32(x: number): void { this.v.setUint32(this.o, cu32(x), true); this.o += 4; }
  i32(x: number): void { this.v.setInt32(this.o, ci32(x), true); this.o += 4; }
  u64(x: bigint): void { this.v.setBigUint64(this.o, cu64(x), true); this.o += 8; }
  i64(x: bigint): void { this.v.setBigInt64(this.o, ci64(x), true); this.o += 8; }
  f32(x: number): void { setF32(this.v, this.o, cf64(x)); this.o += 4; }
  f64(x: number): void { this.v.setFloat64(this.o, cf64(x), true); this.o += 8; }

  /** A u32 count (an array's length: a number that is not one fails). */
  count(n: number): void {
    if (n >>> 0 !== n) bad();
    this.v.setUint32(this.o, n, true);
    this.o += 4;
  }

  /** An array's count (what is no array fails). */
  array(x: readonly unknown[]): void {
    if (!Array.isArray(x)) bad();
    this.count(x.length);
  }

  str(s: string): void {
    if (typeof s !== "string") bad();
    const o = this.o + 4;
    const b = this.b;
    let p = o;
    const n = s.length;
    if (n <= SHORT_ENCODE) {
      for (let i = 0; i < n; i++) {
        let c = s.charCodeAt(i);
        if (c < 0x80) {
          b[p++] = c;
        } else if (c < 0x800) {
          b[p++] = 0xc0 | (c >> 6);
          b[p++] = 0x80 | (c & 0x3f);
        } else if (c >= 0xd800 && c <= 0xdfff) {
          const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
          if (c > 0xdbff || (d & 0xfc00) !== 0xdc00) bad();
          i++;
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          b[p++] = 0xf0 | (c >> 18);
          b[p++] = 0x80 | ((c >> 12) & 0x3f);
          b[p++] = 0x80 | ((c >> 6) & 0x3f);
          b[p++] = 0x80 | (c & 0x3f);
        } else {
          b[p++] = 0xe0 | (c >> 12);
          b[p++] = 0x80 | ((c >> 6) & 0x3f);
          b[p++] = 0x80 | (c & 0x3f);
        }
      }
    } else {
      if (loneSurrogate.test(s)) bad();
      p += utf8Encoder.encodeInto(s, b.subarray(o)).written!;
    }
    this.v.setUint32(o - 4, p - o, true);
    this.o = p;
  }

  bytes(x: Uint8Array): void {
    if (!(x instanceof Uint8Array)) bad();
    this.count(x.length);
    this.b.set(x, this.o);
    this.o += x.length;
  }

  /** Numbers of a typed array of type, little-endian. */
  numbers<T extends NumberArray>(x: T, type: NumbersType<T>, kind: NumberKind): void {
    if (!(x instanceof type)) bad();
    const n = x.length;
    const size = type.BYTES_PER_ELEMENT;
    if (littleEndian) {
      this.b.set(new Uint8Array(x.buffer, x.byteOffset, n * size), this.o);
    } else {
      const set = setters[kind];
      for (let i = 0; i < n; i++) set(this.v, this.o + i * size, x[i]!);
    }
    this.o += n * size;
  }

  /** A []T of numbers: the count, then the elements. */
  arrayNumbers<T extends NumberArray>(x: T, type: NumbersType<T>, kind: NumberKind): void {
    if (!(x instanceof type)) bad();
    this.count(x.length);
    this.numbers(x, type, kind);
  }

  /** A [N]T of numbers. */
  fixedNumbers<T extends NumberArray>(x: T, type: NumbersType<T>, n: number, kind: NumberKind): void {
    if (!(x instanceof type) || x.length !== n) bad();
    this.numbers(x, type, kind);
  }

  /** A [N]u8. */
  fixedBytes(x: Uint8Array, n: number): void {
    if (!(x instanceof Uint8Array) || x.length !== n) bad();
    this.b.set(x, this.o);
    this.o += n;
  }
}

/** @internal A typed array of numbers. */
export type NumberArray =
  | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array
  | BigUint64Array | BigInt64Array | Float32Array | Float64Array | Uint8Array;

/** @internal Checks a fixed array's length (an array that is none fails too). */
export function fixedLength(x: { readonly length: number }, n: number): void {
  if (x.length !== n || !Array.isArray(x)) bad();
}

/** @internal The size of a string's encoding. */
export function strSize(s: string): number {
  return 4 + utf8Length(s);
}

/** @internal A size: a number, or the function that computes it. */
export type Size<T> = number | ((v: T) => number);

/**
 * @internal The error for v, whose encoding failed with e: the check walk's
 * (rule and path), else (the walk finds nothing wrong) e itself.
 */
function refuse<T>(e: unknown, v: T, check: (v: T) => void, type: string): unknown {
  try {
    check(v);
  } catch (e2) {
    return finish(e2, type);
  }
  return e === UNENCODABLE ? new Error("sdp: the encoder refused a " + type + " the check walk accepts (a bug of the generated code)") : e;
}

/** @internal The size of v's encoding; throws the check walk's error where the size is no number. */
function sizeOf<T>(v: T, size: Size<T>, check: (v: T) => void, type: string): number {
  if (typeof size === "number") return size;
  let n: number;
  try {
    n = size(v);
  } catch (e) {
    throw refuse(e, v, check, type);
  }
  // NaN: a number where a string or array is (its length is undefined).
  if (!(n >= 0)) throw refuse(UNENCODABLE, v, check, type);
  return n;
}

/** @internal A new buffer of n bytes; an encoding too large for the host is rule "size". */
function alloc(n: number): Uint8Array {
  try {
    return new Uint8Array(n);
  } catch (e) {
    if (e instanceof RangeError) throw new EncodeError("size", "an encoding of " + n + " bytes is larger than this host's largest Uint8Array");
    throw e;
  }
}

/** @internal encodedSize(): checks v (the check walk), then computes its size. */
export function encodedSize<T>(v: T, size: Size<T>, check: (v: T) => void, type: string): number {
  try {
    check(v);
  } catch (e) {
    throw finish(e, type);
  }
  return sizeOf(v, size, check, type);
}

/** @internal Encodes v into a new buffer with write. */
export function encodeNew<T>(v: T, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): Uint8Array {
  const b = alloc(sizeOf(v, size, check, type));
  try {
    write(new Writer(b, 0), v);
  } catch (e) {
    throw refuse(e, v, check, type);
  }
  return b;
}

function tooSmall(buf: Uint8Array, off: number, n: number, what: string): EncodeError {
  return new EncodeError("size", "the buffer has " + Math.max(0, buf.byteLength - off) + " bytes from offset " + off + ", the " + what + " needs " + n);
}

/**
 * @internal Encodes v into buf at off; returns the bytes written. On an
 * error the bytes of buf from off may have been written.
 */
export function encodeAt<T>(buf: Uint8Array, off: number, v: T, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): number {
  const n = sizeOf(v, size, check, type);
  if (!(off >= 0) || buf.byteLength - off < n) {
    // A value that has no encoding says so first.
    try {
      check(v);
    } catch (e) {
      throw finish(e, type);
    }
    throw tooSmall(buf, off, n, "value");
  }
  try {
    write(new Writer(buf, off), v);
  } catch (e) {
    throw refuse(e, v, check, type);
  }
  return n;
}

/** @internal The size of v framed as a message (checked as encodedSize checks). */
export function encodedMessageSize<T>(v: T, size: Size<T>, check: (v: T) => void, type: string): number {
  const n = encodedSize(v, size, check, type);
  if (n > 0xffffffff) throw payloadTooLarge(n);
  return MESSAGE_HEADER_SIZE + n;
}

function payloadTooLarge(n: number): EncodeError {
  return new EncodeError("message", "a payload of " + n + " bytes is over the u32 limit of a message's length", "message");
}

/** @internal Encodes v as a message into a new buffer. */
export function encodeMessageNew<T>(v: T, typeId: number, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): Uint8Array {
  const n = sizeOf(v, size, check, type);
  if (n > 0xffffffff) throw payloadTooLarge(n);
  const b = alloc(MESSAGE_HEADER_SIZE + n);
  try {
    const w = new Writer(b, 0);
    header(w, typeId, n);
    write(w, v);
  } catch (e) {
    throw refuse(e, v, check, type);
  }
  return b;
}

/** @internal Encodes v as a message into buf at off; returns the bytes written. */
export function encodeMessageAt<T>(buf: Uint8Array, off: number, v: T, typeId: number, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): number {
  const p = sizeOf(v, size, check, type);
  if (p > 0xffffffff) throw payloadTooLarge(p);
  const n = MESSAGE_HEADER_SIZE + p;
  if (!(off >= 0) || buf.byteLength - off < n) {
    try {
      check(v);
    } catch (e) {
      throw finish(e, type);
    }
    throw tooSmall(buf, off, n, "message");
  }
  try {
    const w = new Writer(buf, off);
    header(w, typeId, p);
    write(w, v);
  } catch (e) {
    throw refuse(e, v, check, type);
  }
  return n;
}

// The check walk's checks: each throws the EncodeError of docs/wire-format.md
// ("Values that have no encoding") for a value its type cannot encode.

function describe(x: unknown): string {
  if (x === null) return "null";
  switch (typeof x) {
    case "undefined": return "undefined";
    case "string": return "a string";
    case "number": return "the number " + x;
    case "bigint": return "the bigint " + x;
    case "boolean": return "a boolean";
    case "function": return "a function";
  }
  if (Array.isArray(x)) return "an array";
  const c = (x as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof c === "string" && c !== "" && c !== "Object" ? "a " + c : "an object";
}

function wrongType(want: string, x: unknown): EncodeError {
  return new EncodeError("type", "want " + want + ", not " + describe(x));
}

const intRanges: { readonly [k: string]: readonly [number, number] } = {
  u8: [0, 0xff], i8: [-0x80, 0x7f], u16: [0, 0xffff], i16: [-0x8000, 0x7fff],
  u32: [0, 0xffffffff], i32: [-0x80000000, 0x7fffffff],
};

/** @internal Checks an integer of kind (u8 ... i64). */
export function kint(x: unknown, kind: string): void {
  if (kind === "u64" || kind === "i64") {
    if (typeof x !== "bigint") throw wrongType("a bigint (" + kind + ")", x);
    const ok = kind === "u64" ? BigInt.asUintN(64, x) === x : BigInt.asIntN(64, x) === x;
    if (!ok) throw new EncodeError("range", x + " is out of range for " + kind);
    return;
  }
  if (typeof x !== "number") throw wrongType("a number (" + kind + ")", x);
  if (!Number.isInteger(x)) throw new EncodeError("type", x + " is not an integer (" + kind + ")");
  const [lo, hi] = intRanges[kind]!;
  if (x < lo || x > hi) throw new EncodeError("range", x + " is out of range for " + kind);
}

/** @internal Checks an f32 or f64. */
export function kfloat(x: unknown, kind: string): void {
  if (typeof x !== "number") throw wrongType("a number (" + kind + ")", x);
}

/** @internal Checks a bool. */
export function kbool(x: unknown): void {
  if (typeof x !== "boolean") throw wrongType("a boolean", x);
}

/** @internal Checks an enum's value: ok says whether it is one of type's numbers. */
export function kenum(x: unknown, ok: boolean, type: string): void {
  if (typeof x !== "number") throw wrongType("a number (enum " + type + ")", x);
  if (!ok) throw new EncodeError("enum", x + " is not a value of " + type);
}

/** @internal Checks a string. */
export function kstr(x: unknown): void {
  if (typeof x !== "string") throw wrongType("a string", x);
  if (loneSurrogate.test(x)) throw new EncodeError("utf8", "the string holds a lone UTF-16 surrogate (it has no UTF-8)");
  const n = utf8Length(x);
  if (n > 0xffffffff) throw new EncodeError("count", "a string of " + n + " bytes is over the u32 limit");
}

function klength(x: { readonly length: number }, fixed: number, what: string): void {
  if (fixed >= 0 && x.length !== fixed) throw new EncodeError("length", "a fixed array of " + fixed + " elements holds " + x.length);
  if (x.length > 0xffffffff) throw new EncodeError("count", what + " of " + x.length + " elements is over the u32 limit");
}

/** @internal Checks a []u8 (fixed: -1) or a [N]u8 (fixed: N). */
export function kbytes(x: unknown, fixed: number): void {
  if (!(x instanceof Uint8Array)) throw wrongType("a Uint8Array", x);
  klength(x, fixed, "a byte array");
}

/** @internal Checks a typed array of numbers. */
export function knumbers<T>(x: unknown, type: NumbersType<T> & { readonly name: string }, fixed: number): void {
  if (!(x instanceof type)) throw wrongType("a " + type.name, x);
  klength(x as unknown as { readonly length: number }, fixed, "an array");
}

/** @internal Checks an array (its elements are checked by the caller). */
export function karray(x: unknown, fixed: number): void {
  if (!Array.isArray(x)) throw wrongType("an array", x);
  klength(x, fixed, "an array");
}

/** @internal Checks a present ??T: [x]. */
export function ktuple(x: unknown): void {
  if (!Array.isArray(x) || x.length !== 1) throw wrongType("[x] (a present ??T)", x);
}

/** @internal Checks that a struct's value is an object. */
export function kobj(x: unknown, type: string): void {
  if (typeof x !== "object" || x === null) throw wrongType("a struct " + type, x);
}

/** @internal A union value that is no object: it holds no variant. */
export function kunion(x: unknown, type: string): void {
  if (typeof x !== "object" || x === null) {
    throw new EncodeError("union_tag", describe(x) + " holds no variant of " + type);
  }
}

/** @internal An EncodeError for a union value whose kind names no variant. */
export function badKind(x: unknown, type: string): EncodeError {
  return new EncodeError("union_tag", "kind " + (typeof x === "string" ? JSON.stringify(x) : describe(x)) + " is not a variant of " + type);
}

// Messages.

const MAGIC = [0x53, 0x44, 0x50, 0x32];

/** @internal Writes a message header at w's offset (size was checked). */
export function header(w: Writer, typeId: number, size: number): void {
  for (let i = 0; i < 4; i++) w.b[w.o + i] = MAGIC[i]!;
  w.v.setUint16(w.o + 4, typeId, true);
  w.v.setUint32(w.o + 6, size, true);
  w.o += MESSAGE_HEADER_SIZE;
}

function messageError(off: number, rule: Rule, msg: string): DecodeError {
  const e = new DecodeError(rule, off, msg);
  e.path = "message";
  e.layout();
  return e;
}

/** @internal Checks a message header: the payload's type id (the payload is b[10:]). */
export function readHeader(b: Uint8Array, want: number, wantName: string, known: (id: number) => string | undefined, schema: string): number {
  if (b.byteLength < MESSAGE_HEADER_SIZE) {
    throw messageError(0, "truncated", "input ends inside the message header: need 10 bytes, " + b.byteLength + " remain");
  }
  for (let i = 0; i < 4; i++) {
    if (b[i] !== MAGIC[i]) throw messageError(0, "message", "bad magic, want 53445032 (\"SDP2\")");
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

/** @internal A schema's structs for hellos and dispatch: type id, name, fingerprint. */
export interface MessageInfo {
  readonly typeId: number;
  readonly name: string;
  readonly fingerprint: bigint;
}

/** @internal The hello message of a schema's structs (sorted by type id). */
export function encodeHello(structs: readonly MessageInfo[]): Uint8Array {
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

function hex16(x: bigint): string {
  return x.toString(16).padStart(16, "0");
}

/** Checks a hello (b holds it whole); offsets are from its header's start. */
function checkHello(b: Uint8Array, structs: readonly MessageInfo[]): DecodeError | undefined {
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
    if (mine === undefined) continue;
    const theirs = v.getBigUint64(o + 2, true);
    if (theirs !== mine.fingerprint) {
      return messageError(o + 2, "schema", "the writer's schema has another version of " + mine.name + " (type id " + id + "): fingerprint " + hex16(theirs) + ", here " + hex16(mine.fingerprint) + "; run `sdp compat` on the two schemas");
    }
  }
  return undefined;
}

// Streams.

/** Options of a MessageReader. */
export interface MessageReaderOptions extends DecodeOptions {
  /** The largest payload accepted, in bytes (0, negative or absent: 64 MiB); a longer one is refused before it is read. */
  readonly maxSize?: number;
  /** Refuse a stream whose first message is not a hello. */
  readonly requireHello?: boolean;
}

/** A source of stream bytes: a WHATWG ReadableStream or any (async) iterable of chunks. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** @internal Decodes one payload of a known type id (the header checked). */
export type PayloadDecoder<M> = (typeId: number, b: Uint8Array, opts: DecodeOptions | undefined) => M;

/** @internal Reads messages from a byte source; the generated MessageReader extends it. */
export class MessageReaderBase<M> {
  /** Whether the stream began with a hello that this reader checked. */
  schemaChecked = false;
  private readonly iter: AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  private store = new Uint8Array(0);
  private pos = 0;
  private len = 0;
  private buf = new Uint8Array(0); // store[pos:len]
  private start = 0; // the stream offset of buf[0]
  private eof = false;
  private index = 0;
  private failed: DecodeError | undefined;
  private readonly opts: MessageReaderOptions;

  constructor(
    source: ByteSource,
    opts: MessageReaderOptions | undefined,
    private readonly structs: readonly MessageInfo[],
    private readonly decodePayload: PayloadDecoder<M>,
    private readonly schema: string,
  ) {
    this.opts = opts ?? {};
    if (typeof (source as ReadableStream<Uint8Array>).getReader === "function") {
      const r = (source as ReadableStream<Uint8Array>).getReader();
      this.iter = {
        next: async () => {
          const x = await r.read();
          return x.done ? { done: true, value: undefined } : { done: false, value: x.value };
        },
      };
    } else if (Symbol.asyncIterator in (source as object)) {
      this.iter = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    } else {
      this.iter = (source as Iterable<Uint8Array>)[Symbol.iterator]();
    }
  }

  /**
   * Reads until buf holds n bytes or the source ends; reports whether it
   * holds them. The bytes read and not consumed live in store[pos:len],
   * which grows by doubling: small chunks cost no copy of what came before.
   */
  private async fill(n: number): Promise<boolean> {
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

  private consume(n: number): void {
    this.pos += n;
    this.start += n;
    if (this.pos === this.len) {
      this.pos = this.len = 0;
    }
    this.buf = this.store.subarray(this.pos, this.len);
  }

  private fail(e: DecodeError, index: number, start: number, skippable: boolean): DecodeError {
    e.index = index;
    e.messageOffset = start;
    e.skippable = skippable;
    e.layout();
    if (!skippable) this.failed = e;
    return e;
  }

  /**
   * The next message, or undefined at the end of the stream. Throws a
   * DecodeError with the message's index, its stream offset (messageOffset)
   * and the problem's (offset); after one
   * whose `skippable` is true the next read goes on with the next message,
   * after any other every read throws it again.
   */
  async read(): Promise<M | undefined> {
    for (;;) {
      if (this.failed !== undefined) throw this.failed;
      const m = await this.readOne();
      if (m !== null) return m;
    }
  }

  /** One message; null for a hello that was read and checked. */
  private async readOne(): Promise<M | undefined | null> {
    const index = this.index;
    if (!(await this.fill(1))) return undefined;
    const off = this.start;
    const fail = (at: number, rule: Rule, msg: string, skippable: boolean): DecodeError =>
      this.fail(messageError(off + at, rule, msg), index, off, skippable);
    if (!(await this.fill(MESSAGE_HEADER_SIZE))) {
      throw fail(0, "truncated", "the stream ends inside a message header: " + this.buf.byteLength + " of 10 bytes", false);
    }
    const h = this.buf;
    const v = new DataView(h.buffer, h.byteOffset, MESSAGE_HEADER_SIZE);
    for (let i = 0; i < 4; i++) {
      if (h[i] !== MAGIC[i]) throw fail(0, "message", "bad magic, want 53445032 (\"SDP2\")", false);
    }
    const n = v.getUint32(6, true);
    const id = v.getUint16(4, true);
    const max = limit(this.opts.maxSize, DEFAULT_MAX_MESSAGE_SIZE);
    const within = n <= max;
    const hello = id === HELLO_TYPE_ID && index === 0;
    // Whether the payload is complete, read only when the message could be skipped.
    const whole = async (): Promise<boolean> => within && (await this.fill(MESSAGE_HEADER_SIZE + n));
    if (this.opts.requireHello && index === 0 && !hello) {
      throw fail(4, "schema", "the stream does not start with a hello (type id 0), and this reader requires one", false);
    }
    let bad: string | undefined;
    if (!hello) {
      const st = id === HELLO_TYPE_ID ? undefined : this.structs.find((s) => s.typeId === id);
      if (id === HELLO_TYPE_ID) {
        bad = "a hello (type id 0) may only be a stream's first message; this is message #" + index;
      } else if (st === undefined) {
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
    } catch (e) {
      if (e instanceof DecodeError) {
        e.offset += off + MESSAGE_HEADER_SIZE;
        throw this.fail(e, index, off, true);
      }
      throw e;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<M> {
    for (;;) {
      const m = await this.read();
      if (m === undefined) return;
      yield m;
    }
  }
}

/** A sink of stream bytes: a WHATWG WritableStream or a callback. */
export type ByteSink = WritableStream<Uint8Array> | ((chunk: Uint8Array) => void | Promise<void>);

/** Options of a MessageWriter. */
export interface MessageWriterOptions {
  /** The largest payload written, in bytes (0, negative or absent: 64 MiB): a larger message is refused with EncodeError, as a reader with the same maximum would refuse it. */
  readonly maxSize?: number;
}

/** @internal Writes messages to a sink; the generated MessageWriter extends it. */
export class MessageWriterBase<M extends { encodeMessage(): Uint8Array }> {
  private readonly write: (chunk: Uint8Array) => void | Promise<void>;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  private readonly maxSize: number;

  constructor(sink: ByteSink, private readonly structs: readonly MessageInfo[], opts?: MessageWriterOptions) {
    this.maxSize = limit(opts?.maxSize, DEFAULT_MAX_MESSAGE_SIZE);
    if (typeof sink === "function") {
      this.write = sink;
      this.writer = undefined;
    } else {
      const w = sink.getWriter();
      this.writer = w;
      this.write = (c) => w.write(c);
    }
  }

  /**
   * Writes one message; throws EncodeError, and writes nothing, for a value
   * that has no encoding or a payload over the maximum (rule "message").
   */
  async writeMessage(m: M): Promise<void> {
    const b = m.encodeMessage();
    const n = b.byteLength - MESSAGE_HEADER_SIZE;
    if (n > this.maxSize) {
      throw new EncodeError("message", "a payload of " + n + " bytes is over the writer's maximum of " + this.maxSize, "message");
    }
    await this.write(b);
  }

  /** Writes the schema's hello (the first message of a stream, if at all). */
  async writeHello(): Promise<void> {
    await this.write(encodeHello(this.structs));
  }

  /** Closes a WritableStream sink (a callback needs nothing). */
  async close(): Promise<void> {
    if (this.writer !== undefined) await this.writer.close();
  }
}
