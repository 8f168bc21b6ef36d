/** The default nesting limit of DecodeOptions.maxDepth. */
export declare const DEFAULT_MAX_DEPTH = 64;
/** The default maximum payload length of a MessageReader (64 MiB). */
export declare const DEFAULT_MAX_MESSAGE_SIZE: number;
/** The size of a message header: magic "SDP2", u16 type id, u32 length. */
export declare const MESSAGE_HEADER_SIZE = 10;
/** The type id of a hello, the schema check a stream may start with. */
export declare const HELLO_TYPE_ID = 0;
/** The rules of docs/wire-format.md a decoder reports by name. */
export declare type Rule = "truncated" | "trailing" | "bool" | "presence" | "enum" | "union_tag" | "utf8" | "count" | "depth" | "message" | "memory" | "schema";
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
export declare function limit(x: number | undefined, def: number): number;
/** A rejected input: the rule it breaks, where, and the value's path. */
export declare class DecodeError extends Error {
    /** The broken rule of docs/wire-format.md. */
    readonly rule: Rule;
    /** The byte offset of the problem, from the start of the input (of the stream for a MessageReader). */
    offset: number;
    /** The field path of the value holding the problem (a.b[3].c); empty at the top level. */
    path: string;
    /** The type being decoded. */
    type: string;
    /** For a MessageReader: the index of the message in the stream, from 0 (a hello is one); else -1. */
    index: number;
    /** For a MessageReader: the stream offset of the message's first byte (its header); else -1. */
    messageOffset: number;
    /** For a MessageReader: whether the reader can go on with the next message. */
    skippable: boolean;
    /** What is wrong, in words: the message without the rule, offset and path. */
    readonly detail: string;
    /** @internal the path's segments, innermost first */
    segs: (string | number)[];
    constructor(rule: Rule, offset: number, detail: string);
    /**
     * @internal Sets message to the layout of docs/api.md: "<rule> at offset
     * <offset> in <path>: <detail>", after "message <index> at stream offset
     * <start>: " for a stream (the offset then counts from the message's start).
     */
    layout(): void;
}
/** The rules of docs/wire-format.md ("Values that have no encoding") an encoder reports by name. */
export declare type EncodeRule = "enum" | "union_tag" | "utf8" | "length" | "count" | "range" | "type" | "size" | "message";
/**
 * A value that has no encoding: the rule it breaks and the value's path;
 * message reads "<rule> in <path>: <detail>" (docs/api.md).
 */
export declare class EncodeError extends Error {
    /** The broken rule of docs/wire-format.md ("Values that have no encoding"). */
    readonly rule: EncodeRule;
    /** The field path of the offending value (a.b[3].c), as a decoder's; empty at the top level, "message" for a message's size. */
    path: string;
    /** What is wrong, in words: the message without the rule and path. */
    readonly detail: string;
    /** @internal the path's segments, innermost first */
    segs: (string | number)[];
    constructor(rule: EncodeRule, detail: string, path?: string);
    /** @internal Sets message to "<rule> in <path>: <detail>" (or "<rule>: <detail>"). */
    layout(): void;
}
/** @internal Adds a path segment to an error unwinding through a field or element. */
export declare function at(e: unknown, seg: string | number): unknown;
/** @internal Completes an error leaving a top-level decode or encode. */
export declare function finish(e: unknown, type: string): unknown;
/** @internal Bytes of any accepted input. */
export declare function bytesOf(b: Uint8Array | ArrayBuffer): Uint8Array;
/** @internal Reads an f32 at off of v, keeping NaN payloads bit for bit. */
export declare function getF32(v: DataView, off: number): number;
/** @internal Writes an f32 at off of v, keeping NaN payloads bit for bit. */
export declare function setF32(v: DataView, off: number, x: number): void;
/** @internal A typed-array constructor of the numeric element kinds. */
export interface NumbersType<T> {
    readonly BYTES_PER_ELEMENT: number;
    new (length: number): T;
    new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
}
/** @internal The decoder: reads one value from b, throwing DecodeError. */
export declare class Reader {
    readonly b: Uint8Array;
    readonly v: DataView;
    o: number;
    readonly end: number;
    depth: number;
    readonly maxDepth: number;
    mem: number;
    readonly memLimit: number;
    readonly views: boolean;
    constructor(b: Uint8Array, off: number, opts: DecodeOptions | undefined, payload: number);
    fail(off: number, rule: Rule, msg: string): never;
    truncated(need: number): never;
    /** A fixed array of size-byte elements that the input ends inside. */
    truncatedElement(size: number): never;
    enter(): void;
    trailing(type: string): void;
    u8(): number;
    i8(): number;
    u16(): number;
    i16(): number;
    u32(): number;
    i32(): number;
    u64(): bigint;
    i64(): bigint;
    f32(): number;
    f64(): number;
    bool(): boolean;
    /** An optional's presence byte. */
    present(): boolean;
    /** An enum number at off that names no value. */
    badEnum(off: number, x: number, type: string): never;
    /** A union tag at off that names no variant. */
    badTag(off: number, x: number, type: string): never;
    /** An array count or string length, checked against what remains before anything is made. */
    count(min: number): number;
    /** Charges n values of each bytes, counted at off, to the memory total. */
    charge(off: number, n: number, each: number): void;
    str(): string;
    bytes(): Uint8Array;
    fixedBytes(n: number): Uint8Array;
    /** n elements of a numeric kind: a view when asked for and aligned, else a copy. */
    numbers<T>(type: NumbersType<T>, n: number, kind: NumberKind): T;
    /** A []T of numbers: a count, then the elements. */
    arrayNumbers<T>(type: NumbersType<T>, kind: NumberKind): T;
    /** A [N]T of numbers. */
    fixedNumbers<T>(type: NumbersType<T>, n: number, kind: NumberKind): T;
}
/** @internal The numeric element kinds of typed arrays. */
export declare type NumberKind = "i8" | "u16" | "i16" | "u32" | "i32" | "u64" | "i64" | "f32" | "f64";
/**
 * @internal A present ??T: [x], in an array of tagged values (a literal
 * [x] of a double would be an array of doubles, which quiets signalling
 * NaNs in V8).
 */
export declare function tuple<T>(x: T): [T];
/** @internal Decodes a whole input with fn. */
export declare function decodeTop<T>(bytes: Uint8Array | ArrayBuffer, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): T;
/** @internal Decodes the start of an input; returns the value and the bytes it used. */
export declare function decodePrefix<T>(bytes: Uint8Array | ArrayBuffer, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): [T, number];
/** @internal Decodes a message's payload whose header readHeader checked. */
export declare function decodePayload<T>(b: Uint8Array, opts: DecodeOptions | undefined, fn: (r: Reader) => T, type: string): T;
/** @internal The UTF-8 length of s (a lone surrogate counts 3; the encoder refuses it). */
export declare function utf8Length(s: string): number;
/** @internal What the encoder throws for a value it cannot write; the check walk says why. */
export declare const UNENCODABLE: EncodeError;
/** @internal Throws UNENCODABLE. */
export declare function bad(): never;
/** @internal */
export declare function cu8(x: number): number;
/** @internal */
export declare function ci8(x: number): number;
/** @internal */
export declare function cu16(x: number): number;
/** @internal */
export declare function ci16(x: number): number;
/** @internal */
export declare function cu32(x: number): number;
/** @internal */
export declare function ci32(x: number): number;
/** @internal */
export declare function cu64(x: bigint): bigint;
/** @internal */
export declare function ci64(x: bigint): bigint;
/** @internal */
export declare function cf64(x: number): number;
/** @internal */
export declare function cbool(x: boolean): number;
/** @internal A struct's value must be an object. */
export declare function cobj(x: object): void;
/** @internal A present ??T must be [x]. */
export declare function ctuple(x: unknown): void;
/** @internal The encoder: writes into b, whose size was computed beforehand. */
export declare class Writer {
    readonly b: Uint8Array;
    readonly v: DataView;
    o: number;
    constructor(b: Uint8Array, off: number);
    /** Reserves n bytes and returns their offset. */
    take(n: number): number;
    /** A byte the encoder itself chose (a presence byte, a union tag). */
    tag(x: number): void;
    u8(x: number): void;
    i8(x: number): void;
    bool(x: boolean): void;
    u16(x: number): void;
    i16(x: number): void;
    u32(x: number): void;
    i32(x: number): void;
    u64(x: bigint): void;
    i64(x: bigint): void;
    f32(x: number): void;
    f64(x: number): void;
    /** A u32 count (an array's length: a number that is not one fails). */
    count(n: number): void;
    /** An array's count (what is no array fails). */
    array(x: readonly unknown[]): void;
    str(s: string): void;
    bytes(x: Uint8Array): void;
    /** Numbers of a typed array of type, little-endian. */
    numbers<T extends NumberArray>(x: T, type: NumbersType<T>, kind: NumberKind): void;
    /** A []T of numbers: the count, then the elements. */
    arrayNumbers<T extends NumberArray>(x: T, type: NumbersType<T>, kind: NumberKind): void;
    /** A [N]T of numbers. */
    fixedNumbers<T extends NumberArray>(x: T, type: NumbersType<T>, n: number, kind: NumberKind): void;
    /** A [N]u8. */
    fixedBytes(x: Uint8Array, n: number): void;
}
/** @internal A typed array of numbers. */
export declare type NumberArray = Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | BigUint64Array | BigInt64Array | Float32Array | Float64Array | Uint8Array;
/** @internal Checks a fixed array's length (an array that is none fails too). */
export declare function fixedLength(x: {
    readonly length: number;
}, n: number): void;
/** @internal The size of a string's encoding. */
export declare function strSize(s: string): number;
/** @internal A size: a number, or the function that computes it. */
export declare type Size<T> = number | ((v: T) => number);
/** @internal encodedSize(): checks v (the check walk), then computes its size. */
export declare function encodedSize<T>(v: T, size: Size<T>, check: (v: T) => void, type: string): number;
/** @internal Encodes v into a new buffer with write. */
export declare function encodeNew<T>(v: T, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): Uint8Array;
/**
 * @internal Encodes v into buf at off; returns the bytes written. On an
 * error the bytes of buf from off may have been written.
 */
export declare function encodeAt<T>(buf: Uint8Array, off: number, v: T, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): number;
/** @internal The size of v framed as a message (checked as encodedSize checks). */
export declare function encodedMessageSize<T>(v: T, size: Size<T>, check: (v: T) => void, type: string): number;
/** @internal Encodes v as a message into a new buffer. */
export declare function encodeMessageNew<T>(v: T, typeId: number, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): Uint8Array;
/** @internal Encodes v as a message into buf at off; returns the bytes written. */
export declare function encodeMessageAt<T>(buf: Uint8Array, off: number, v: T, typeId: number, size: Size<T>, write: (w: Writer, v: T) => void, check: (v: T) => void, type: string): number;
/** @internal Checks an integer of kind (u8 ... i64). */
export declare function kint(x: unknown, kind: string): void;
/** @internal Checks an f32 or f64. */
export declare function kfloat(x: unknown, kind: string): void;
/** @internal Checks a bool. */
export declare function kbool(x: unknown): void;
/** @internal Checks an enum's value: ok says whether it is one of type's numbers. */
export declare function kenum(x: unknown, ok: boolean, type: string): void;
/** @internal Checks a string. */
export declare function kstr(x: unknown): void;
/** @internal Checks a []u8 (fixed: -1) or a [N]u8 (fixed: N). */
export declare function kbytes(x: unknown, fixed: number): void;
/** @internal Checks a typed array of numbers. */
export declare function knumbers<T>(x: unknown, type: NumbersType<T> & {
    readonly name: string;
}, fixed: number): void;
/** @internal Checks an array (its elements are checked by the caller). */
export declare function karray(x: unknown, fixed: number): void;
/** @internal Checks a present ??T: [x]. */
export declare function ktuple(x: unknown): void;
/** @internal Checks that a struct's value is an object. */
export declare function kobj(x: unknown, type: string): void;
/** @internal A union value that is no object: it holds no variant. */
export declare function kunion(x: unknown, type: string): void;
/** @internal An EncodeError for a union value whose kind names no variant. */
export declare function badKind(x: unknown, type: string): EncodeError;
/** @internal Writes a message header at w's offset (size was checked). */
export declare function header(w: Writer, typeId: number, size: number): void;
/** @internal Checks a message header: the payload's type id (the payload is b[10:]). */
export declare function readHeader(b: Uint8Array, want: number, wantName: string, known: (id: number) => string | undefined, schema: string): number;
/** @internal A schema's structs for hellos and dispatch: type id, name, fingerprint. */
export interface MessageInfo {
    readonly typeId: number;
    readonly name: string;
    readonly fingerprint: bigint;
}
/** @internal The hello message of a schema's structs (sorted by type id). */
export declare function encodeHello(structs: readonly MessageInfo[]): Uint8Array;
/** Options of a MessageReader. */
export interface MessageReaderOptions extends DecodeOptions {
    /** The largest payload accepted, in bytes (0, negative or absent: 64 MiB); a longer one is refused before it is read. */
    readonly maxSize?: number;
    /** Refuse a stream whose first message is not a hello. */
    readonly requireHello?: boolean;
}
/** A source of stream bytes: a WHATWG ReadableStream or any (async) iterable of chunks. */
export declare type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
/** @internal Decodes one payload of a known type id (the header checked). */
export declare type PayloadDecoder<M> = (typeId: number, b: Uint8Array, opts: DecodeOptions | undefined) => M;
/** @internal Reads messages from a byte source; the generated MessageReader extends it. */
export declare class MessageReaderBase<M> {
    private readonly structs;
    private readonly decodePayload;
    private readonly schema;
    /** Whether the stream began with a hello that this reader checked. */
    schemaChecked: boolean;
    private readonly iter;
    private store;
    private pos;
    private len;
    private buf;
    private start;
    private eof;
    private index;
    private failed;
    private readonly opts;
    constructor(source: ByteSource, opts: MessageReaderOptions | undefined, structs: readonly MessageInfo[], decodePayload: PayloadDecoder<M>, schema: string);
    /**
     * Reads until buf holds n bytes or the source ends; reports whether it
     * holds them. The bytes read and not consumed live in store[pos:len],
     * which grows by doubling: small chunks cost no copy of what came before.
     */
    private fill;
    private consume;
    private fail;
    /**
     * The next message, or undefined at the end of the stream. Throws a
     * DecodeError with the message's index, its stream offset (messageOffset)
     * and the problem's (offset); after one
     * whose `skippable` is true the next read goes on with the next message,
     * after any other every read throws it again.
     */
    read(): Promise<M | undefined>;
    /** One message; null for a hello that was read and checked. */
    private readOne;
    [Symbol.asyncIterator](): AsyncIterator<M>;
}
/** A sink of stream bytes: a WHATWG WritableStream or a callback. */
export declare type ByteSink = WritableStream<Uint8Array> | ((chunk: Uint8Array) => void | Promise<void>);
/** Options of a MessageWriter. */
export interface MessageWriterOptions {
    /** The largest payload written, in bytes (0, negative or absent: 64 MiB): a larger message is refused with EncodeError, as a reader with the same maximum would refuse it. */
    readonly maxSize?: number;
}
/** @internal Writes messages to a sink; the generated MessageWriter extends it. */
export declare class MessageWriterBase<M extends {
    encodeMessage(): Uint8Array;
}> {
    private readonly structs;
    private readonly write;
    private readonly writer;
    private readonly maxSize;
    constructor(sink: ByteSink, structs: readonly MessageInfo[], opts?: MessageWriterOptions);
    /**
     * Writes one message; throws EncodeError, and writes nothing, for a value
     * that has no encoding or a payload over the maximum (rule "message").
     */
    writeMessage(m: M): Promise<void>;
    /** Writes the schema's hello (the first message of a stream, if at all). */
    writeHello(): Promise<void>;
    /** Closes a WritableStream sink (a callback needs nothing). */
    close(): Promise<void>;
}
