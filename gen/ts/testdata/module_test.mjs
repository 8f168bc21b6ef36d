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

function throwsEncode(fn, path, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof arrays.EncodeError || e instanceof eu.EncodeError || e instanceof prim.EncodeError, "not an EncodeError: " + e);
    assert.equal(e.path, path);
    assert.match(e.message, re);
    return true;
  });
}

// EncodeError: a fixed array of the wrong length, with its path.
const f = new arrays.Fixed();
f.matrix[1] = new Float32Array(2);
throwsEncode(() => f.encode(), "matrix[1]", /fixed array of 3 elements has 2/);
f.matrix[1] = new Float32Array(3);
f.names = ["a"];
throwsEncode(() => f.encode(), "names", /fixed array of 2 elements has 1/);

// An enum number the enum does not declare; a union kind that names no variant.
const en = new eu.Enums({ sparse: 3 });
throwsEncode(() => en.encode(), "sparse", /not a value of Sparse/);
const en2 = new eu.Enums({ list: [1, 7] });
throwsEncode(() => en2.encode(), "list[1]", /not a value of Sparse/);
const un = new eu.Unions({ shapes: [{ kind: "None" }, { kind: "Nope" }] });
throwsEncode(() => un.encode(), "shapes[1]", /kind Nope is not a variant of Shape/);

// A lone surrogate, short and long.
throwsEncode(() => new prim.Text({ value: "a\ud800" }).encode(), "value", /lone UTF-16 surrogate/);
throwsEncode(() => new prim.Text({ value: "x".repeat(100) + "\udc00" }).encode(), "value", /lone UTF-16 surrogate/);
// A well-formed pair is fine both ways, short and long.
for (const s of ["😀", "x".repeat(100) + "😀é"]) {
  assert.equal(prim.Text.decode(new prim.Text({ value: s }).encode()).value, s);
}

// encodeInto a buffer that is too small.
assert.throws(() => new arrays.Point({ x: 1 }).encodeInto(new Uint8Array(15)), prim.EncodeError === arrays.EncodeError ? arrays.EncodeError : Error);

// Unions on their own.
const shape = { kind: "Rect", value: new eu.Shape_Rect({ width: 2, height: 3 }) };
const sb = eu.Shape.encode(shape);
assert.equal(sb.length, eu.Shape.encodedSize(shape));
assert.deepEqual(eu.Shape.decode(sb), shape);
assert.deepEqual(eu.Shape.decodePrefix(new Uint8Array([...sb, 9])), [shape, sb.length]);

// Depth and memory limits.
let node = new rec.Node({ value: "leaf" });
for (let i = 0; i < 10; i++) node = new rec.Node({ value: "n" + i, next: node });
const nb = node.encode();
assert.equal(rec.Node.decode(nb, { maxDepth: 11 }).value, "n9");
assert.throws(() => rec.Node.decode(nb, { maxDepth: 10 }), (e) => e.rule === "depth" && e.path === "next.next.next.next.next.next.next.next.next.next");
const expr = new rec.Program({ body: { kind: "Add", value: new rec.Expr_Add({ terms: Array.from({ length: 1000 }, () => ({ kind: "Lit", value: new rec.Expr_Lit({ value: 1n }) })) }) } });
const eb = expr.encode();
assert.equal(rec.Program.decode(eb).body.value.terms.length, 1000);
const holder = new hostile.Holder({ items: Array.from({ length: 100 }, () => undefined) }).encode();
assert.equal(hostile.Holder.decode(holder).items.length, 100);
assert.equal(hostile.Holder.decode(holder, { memoryLimit: 52000 }).items.length, 100);
assert.throws(() => hostile.Holder.decode(holder, { memoryLimit: 51999 }), (e) => e.rule === "memory" && e.offset === 0 && e.path === "items");

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

// A MessageWriter refuses a payload over its maximum.
const sink = [];
const w = new arrays.MessageWriter((c) => { sink.push(c); }, { maxSize: 16 });
await w.writeMessage(new arrays.Point());
await assert.rejects(w.writeMessage(new arrays.U32Array({ values: new Uint32Array(4) })), (e) => e instanceof arrays.EncodeError && /over the writer.s maximum of 16/.test(e.message));
assert.equal(sink.length, 1);

console.log("ok");
