// Checks of the generated API that the conformance corpus does not make:
// EncodeError and its path, decode options, views, decodeInto, unions on
// their own. Usage: node module_test.mjs DIR (the compiled corpus packages).
// Prints "ok" or throws.
import assert from "node:assert/strict";

const dir = process.argv[2];
const arrays = await import(dir + "/arrays/index.js");
const eu = await import(dir + "/enums_unions/index.js");
const prim = await import(dir + "/primitives/index.js");
const rec = await import(dir + "/recursive/index.js");
const hostile = await import(dir + "/hostile/index.js");

function throwsEncode(fn, rule, path, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof arrays.EncodeError || e instanceof eu.EncodeError || e instanceof prim.EncodeError, "not an EncodeError: " + e);
    assert.equal(e.rule, rule);
    assert.equal(e.path, path);
    assert.match(e.detail, re);
    // The layout of docs/api.md: "<rule> in <path>: <detail>", or "<rule>: <detail>".
    assert.equal(e.message, rule + (path === "" ? "" : " in " + path) + ": " + e.detail);
    return true;
  });
}

// EncodeError: a fixed array of the wrong length, with its path.
const f = new arrays.Fixed();
f.matrix[1] = new Float32Array(2);
throwsEncode(() => f.encode(), "length", "matrix[1]", /fixed array of 3 elements holds 2/);
f.matrix[1] = new Float32Array(3);
f.names = ["a"];
throwsEncode(() => f.encode(), "length", "names", /fixed array of 2 elements holds 1/);

// An enum number the enum does not declare; a union kind that names no variant.
const en = new eu.Enums({ sparse: 3 });
throwsEncode(() => en.encode(), "enum", "sparse", /not a value of Sparse/);
const en2 = new eu.Enums({ list: [1, 7] });
throwsEncode(() => en2.encode(), "enum", "list[1]", /not a value of Sparse/);
const un = new eu.Unions({ shapes: [{ kind: "None" }, { kind: "Nope" }] });
throwsEncode(() => un.encode(), "union_tag", "shapes[1]", /kind "Nope" is not a variant of Shape/);
throwsEncode(() => eu.Shape.encode(null), "union_tag", "", /null holds no variant of Shape/);

// A lone surrogate, short and long.
throwsEncode(() => new prim.Text({ value: "a\ud800" }).encode(), "utf8", "value", /lone UTF-16 surrogate/);
throwsEncode(() => new prim.Text({ value: "x".repeat(100) + "\udc00" }).encode(), "utf8", "value", /lone UTF-16 surrogate/);

// Integers are range-checked: never written modulo their width.
const ints = [["u8_val", 256], ["u8_val", -1], ["i8_val", 128], ["u16_val", 65536], ["i16_val", -32769],
  ["u32_val", 2 ** 32], ["i32_val", 2 ** 31], ["u64_val", 2n ** 64n], ["u64_val", -1n], ["i64_val", 2n ** 63n]];
for (const [field, x] of ints) {
  const p = new prim.AllPrimitives();
  p[field] = x;
  throwsEncode(() => p.encode(), "range", field, /out of range/);
  throwsEncode(() => p.encodedSize(), "range", field, /out of range/);
}
for (const [field, x] of [["u8_val", 1.5], ["i32_val", NaN], ["u16_val", "7"], ["u64_val", 7], ["f64_val", "1"], ["flag", 1], ["f32_val", null]]) {
  const p = new prim.AllPrimitives();
  p[field] = x;
  throwsEncode(() => p.encode(), "type", field, /./);
}
// The first problem in encoding order is reported.
{
  const p = new prim.AllPrimitives({ u8_val: 300, i64_val: 1 });
  throwsEncode(() => p.encode(), "range", "u8_val", /out of range/);
}
// A well-formed pair is fine both ways, short and long.
for (const s of ["😀", "x".repeat(100) + "😀é"]) {
  assert.equal(prim.Text.decode(new prim.Text({ value: s }).encode()).value, s);
}

// encodeInto a buffer that is too small: rule size, empty path.
throwsEncode(() => new arrays.Point({ x: 1 }).encodeInto(new Uint8Array(15)), "size", "", /the buffer has 15 bytes/);

// Unions on their own.
const shape = { kind: "Rect", value: new eu.Shape_Rect({ width: 2, height: 3 }) };
const sb = eu.Shape.encode(shape);
assert.equal(sb.length, eu.Shape.encodedSize(shape));
assert.deepEqual(eu.Shape.decode(sb), shape);
assert.deepEqual(eu.Shape.decodePrefix(new Uint8Array([...sb, 9])), [shape, sb.length]);

// Decode errors' text: "<rule> at offset <offset> in <path>: <detail>".
assert.throws(() => rec.Node.decode(new Uint8Array([1, 0, 0, 0])), (e) => {
  assert.equal(e.message, e.rule + " at offset " + e.offset + (e.path === "" ? "" : " in " + e.path) + ": " + e.detail);
  return e.rule === "count" && e.path === "value";
});

// Depth and memory limits; 0 or a negative number means the default.
let node = new rec.Node({ value: "leaf" });
for (let i = 0; i < 10; i++) node = new rec.Node({ value: "n" + i, next: node });
const nb = node.encode();
assert.equal(rec.Node.decode(nb, { maxDepth: 11 }).value, "n9");
assert.throws(() => rec.Node.decode(nb, { maxDepth: 10 }), (e) => e.rule === "depth" && e.path === "next.next.next.next.next.next.next.next.next.next");
{
  let deep = new rec.Node({ value: "leaf" });
  for (let i = 0; i < 63; i++) deep = new rec.Node({ value: "n", next: deep });
  const db = deep.encode(); // 64 levels: the default limit
  let deeper = new rec.Node({ value: "n", next: deep });
  const deb = deeper.encode(); // 65
  for (const maxDepth of [undefined, 0, -1, -64]) {
    assert.equal(rec.Node.decode(db, { maxDepth }).value, "n");
    assert.throws(() => rec.Node.decode(deb, { maxDepth }), (e) => e.rule === "depth");
  }
}
const expr = new rec.Program({ body: { kind: "Add", value: new rec.Expr_Add({ terms: Array.from({ length: 1000 }, () => ({ kind: "Lit", value: new rec.Expr_Lit({ value: 1n }) })) }) } });
const eb = expr.encode();
assert.equal(rec.Program.decode(eb).body.value.terms.length, 1000);
const holder = new hostile.Holder({ items: Array.from({ length: 100 }, () => undefined) }).encode();
assert.equal(hostile.Holder.decode(holder).items.length, 100);
assert.equal(hostile.Holder.decode(holder, { memoryLimit: 52000 }).items.length, 100);
assert.throws(() => hostile.Holder.decode(holder, { memoryLimit: 51999 }), (e) => e.rule === "memory" && e.offset === 0 && e.path === "items");
{
  // The default memory limit is 32 × input + 1 MiB: 4,096 absent optionals
  // (4 KiB of input, 520 bytes each: 2 MiB) are over it, for 0 and -1 too.
  const n = 4096;
  const big = new Uint8Array(4 + n);
  new DataView(big.buffer).setUint32(0, n, true);
  for (const memoryLimit of [undefined, 0, -1]) {
    assert.throws(() => hostile.Holder.decode(big, { memoryLimit }), (e) => e.rule === "memory");
  }
  assert.equal(hostile.Holder.decode(big, { memoryLimit: 1 << 22 }).items.length, n);
}

// Views: numeric arrays share the input's memory when aligned, else are copies.
const arr = new arrays.U32Array({ values: new Uint32Array([1, 2, 3]) });
const ab = arr.encode(); // the count takes 4 bytes: the elements are aligned
const v1 = arrays.U32Array.decode(ab, { views: true }).values;
assert.equal(v1.buffer, ab.buffer);
const c1 = arrays.U32Array.decode(ab).values;
assert.notEqual(c1.buffer, ab.buffer);
const odd = new Uint8Array(ab.length + 1);
odd.set(ab, 1);
const v2 = arrays.U32Array.decode(odd.subarray(1), { views: true }).values;
assert.notEqual(v2.buffer, odd.buffer);
assert.deepEqual([...v2], [1, 2, 3]);

// decodeInto: the same object, nested structs reused; reset on failure.
const pts = new arrays.Fixed();
const keep = pts.points[0];
const fb = new arrays.Fixed({ points: [new arrays.Point({ x: 1 }), new arrays.Point({ y: 2 })] }).encode();
assert.equal(arrays.Fixed.decodeInto(fb, pts), pts);
assert.equal(pts.points[0].x, 1);
void keep;
assert.throws(() => arrays.Fixed.decodeInto(fb.subarray(0, 10), pts));
assert.deepEqual(pts.encode(), new arrays.Fixed().encode());

// 64-bit integers are bigints; hostile counts are refused before allocation.
assert.equal(typeof new prim.AllPrimitives().u64_val, "bigint");
assert.throws(() => arrays.U32Array.decode(new Uint8Array([0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4])), (e) => e.rule === "count" && e.offset === 0);

// A MessageWriter refuses a payload over its maximum: rule message, path message, nothing written.
const sink = [];
const w = new arrays.MessageWriter((c) => { sink.push(c); }, { maxSize: 16 });
await w.writeMessage(new arrays.Point());
await assert.rejects(w.writeMessage(new arrays.U32Array({ values: new Uint32Array(4) })), (e) =>
  e instanceof arrays.EncodeError && e.rule === "message" && e.path === "message" && /^message in message: .*over the writer.s maximum of 16/.test(e.message));
assert.equal(sink.length, 1);

// The writer's and the reader's maximum payload: 0 or a negative number means the default, 64 MiB.
{
  const atMax = new arrays.U32Array({ values: new Uint32Array((64 * 1024 * 1024 - 4) / 4) });
  const over = new arrays.U32Array({ values: new Uint32Array((64 * 1024 * 1024) / 4) });
  for (const maxSize of [undefined, 0, -1]) {
    const out = [];
    const wr = new arrays.MessageWriter((c) => { out.push(c); }, { maxSize });
    await wr.writeMessage(atMax);
    await assert.rejects(wr.writeMessage(over), (e) => e.rule === "message" && e.path === "message");
    assert.equal(out.length, 1);
    const r = new arrays.MessageReader([out[0]], { maxSize });
    assert.equal((await r.read()).values.length, atMax.values.length);
    const r2 = new arrays.MessageReader([over.encodeMessage()], { maxSize });
    await assert.rejects(r2.read(), (e) => e.rule === "message" && e.offset === 6 && /over the reader.s maximum of 67108864/.test(e.message));
  }
}

// A stream error's text: "message <index> at stream offset <start>: " and
// the decode error, its offset counted from the message's first byte.
{
  const good = new arrays.Point({ x: 1 }).encodeMessage();
  const bad = new Uint8Array(good);
  bad[9] = 1; // the payload's length: one byte more than follows
  const r = new arrays.MessageReader([good, bad]);
  await r.read();
  await assert.rejects(r.read(), (e) => {
    assert.equal(e.index, 1);
    assert.equal(e.messageOffset, good.length);
    assert.equal(e.message, "message 1 at stream offset " + good.length + ": " + e.rule + " at offset " + (e.offset - good.length) + (e.path === "" ? "" : " in " + e.path) + ": " + e.detail);
    return true;
  });
}

// An encoding larger than the host's largest Uint8Array is rule size, not a
// crash: 40 views of one 128 MiB []u8 make 5 GiB (JavaScript numbers sum
// sizes exactly; no allocation is attempted).
{
  const one = new Uint8Array(128 * 1024 * 1024);
  const huge = new arrays.Arrays({ blobs: Array.from({ length: 40 }, () => one) });
  throwsEncode(() => huge.encode(), "size", "", /larger than this host's largest Uint8Array/);
  assert.equal(huge.encodedSize(), new arrays.Arrays().encodedSize() + 40 * (4 + one.length));
  throwsEncode(() => huge.encodeMessage(), "message", "message", /over the u32 limit/);
  throwsEncode(() => huge.encodedMessageSize(), "message", "message", /over the u32 limit/);
}

console.log("ok");
