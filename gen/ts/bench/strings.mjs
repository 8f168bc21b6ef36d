// Measures where TextDecoder/TextEncoder.encodeInto overtake the
// hand-written UTF-8 loops of runtime.ts for short strings (the SHORT_STRING
// crossover of docs/typescript.md). Run: node gen/ts/bench/strings.mjs
// (needs the runtime compiled: it imports gen/ts/runtime/runtime.js).
import { Reader, Writer } from "../runtime/runtime.js";

const td = new TextDecoder("utf-8", { fatal: true });
const te = new TextEncoder();

function decodeHand(b, s, e) {
  // The hand path of Reader.str, forced (the reader picks by length).
  let out = "";
  for (let i = s; i < e; ) {
    const c = b[i++];
    if (c < 0x80) { out += String.fromCharCode(c); continue; }
    if (c < 0xe0) { out += String.fromCharCode(((c & 0x1f) << 6) | (b[i++] & 0x3f)); continue; }
    out += String.fromCharCode(((c & 0x0f) << 12) | ((b[i++] & 0x3f) << 6) | (b[i++] & 0x3f));
  }
  return out;
}

function encodeHand(s, b, o) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) b[o++] = c;
    else if (c < 0x800) { b[o++] = 0xc0 | (c >> 6); b[o++] = 0x80 | (c & 0x3f); }
    else { b[o++] = 0xe0 | (c >> 12); b[o++] = 0x80 | ((c >> 6) & 0x3f); b[o++] = 0x80 | (c & 0x3f); }
  }
  return o;
}

// The best of 9 rounds: the machine may be busy with other work.
function time(fn, n) {
  for (let i = 0; i < n; i++) fn();
  let best = Infinity;
  for (let round = 0; round < 9; round++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / n);
  }
  return best;
}

const texts = { ascii: "abcdefghijklmnopqrstuvwxyz0123456789", mixed: "aé€bü日c" };
console.log("kind  len  dec-hand  dec-TextDecoder  enc-hand  enc-encodeInto (ns per string)");
for (const [kind, alphabet] of Object.entries(texts)) {
  for (const len of [4, 8, 16, 24, 32, 48, 64, 128, 256]) {
    let s = "";
    while (s.length < len) s += alphabet;
    s = s.slice(0, len);
    const bytes = te.encode(s);
    const buf = new Uint8Array(bytes.length * 3 + 8);
    let sink = 0;
    const n = 20000;
    const dh = time(() => { sink += decodeHand(bytes, 0, bytes.length).length; }, n);
    const dt = time(() => { sink += td.decode(bytes).length; }, n);
    const eh = time(() => { sink += encodeHand(s, buf, 0); }, n);
    const et = time(() => { sink += te.encodeInto(s, buf).written; }, n);
    console.log(kind.padEnd(5), String(bytes.length).padStart(4), dh.toFixed(0).padStart(9), dt.toFixed(0).padStart(16), eh.toFixed(0).padStart(9), et.toFixed(0).padStart(15), sink > 0 ? "" : "!");
  }
}
// The runtime end to end, for reference: a 20-byte string through Reader and Writer.
const w = new Writer(new Uint8Array(64), 0);
w.str("hello, wire format!");
const r = new Reader(w.b.subarray(0, w.o), 0, undefined, w.o);
console.log("runtime round trip:", JSON.stringify(r.str()));
