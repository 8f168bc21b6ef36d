// The testee of the conformance protocol (conformance/testee.go), without
// its transport: testee.mjs runs it in Node over stdin and stdout, and
// browser.html in Chromium over HTTP (TestBrowser). Every input goes through
// every decode API (decode from a Uint8Array at an odd offset and from an
// ArrayBuffer, decode with views, decodePrefix, decodeInto the value the
// previous request of the type left, T.decodeMessage, decodeMessage, the
// stream reader fed 7 bytes at a time); disagreements answer status 2.

const OK = 0, REJECTED = 1, BROKEN = 2;

const enc = new TextEncoder();

export function concat(parts) {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const b = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    b.set(p, o);
    o += p.length;
  }
  return b;
}

/** The testee's answers for the generated package m: handle(op, typeId, input) → [status, body]. */
export function handler(m) {
const types = new Map();
for (const v of Object.values(m)) {
  if (typeof v === "function" && typeof v.TYPE_ID === "number") types.set(v.TYPE_ID, v);
}
const leftover = new Map(); // type id → the value decodeInto wrote last

function outcome(fn) {
  try {
    return { ok: true, v: fn() };
  } catch (e) {
    if (!(e instanceof m.DecodeError)) throw e;
    return { ok: false, e };
  }
}

async function outcomeAsync(fn) {
  try {
    return { ok: true, v: await fn() };
  } catch (e) {
    if (!(e instanceof m.DecodeError)) throw e;
    return { ok: false, e };
  }
}

const where = (e) => e.rule + " @" + e.offset + " " + e.path;
// A rejection is the error's own text, in the layout of docs/api.md.
const rejected = (e) => [REJECTED, enc.encode(e.message)];
const broken = (s) => [BROKEN, enc.encode(s)];
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// The same bytes at an odd offset of a larger buffer (unaligned views).
function shifted(data) {
  const buf = new Uint8Array(data.length + 3);
  buf.set(data, 1);
  return buf.subarray(1, 1 + data.length);
}

// The input in chunks of 7 bytes (of 64 KiB for inputs over 1 MiB, whose
// millions of chunks would only measure the iterator).
async function* chunks(data) {
  const n = data.length > 1 << 20 ? 1 << 16 : 7;
  for (let i = 0; i < data.length; i += n) yield data.subarray(i, Math.min(i + n, data.length));
}

function intoDisagrees(encodeInto, b) {
  const buf = new Uint8Array(b.length + 4).fill(0xaa);
  if (encodeInto(buf, 3) !== b.length || !equal(buf.subarray(3, 3 + b.length), b) || buf[2] !== 0xaa || buf[b.length + 3] !== 0xaa) {
    return "did not write the encoding at the offset, and only there";
  }
  try {
    encodeInto(new Uint8Array(b.length + 2), 3);
  } catch (e) {
    return e instanceof m.EncodeError ? "" : "a short buffer threw " + e;
  }
  return "a short buffer was not refused";
}

async function roundtrip(tid, data) {
  const T = types.get(tid);
  if (T === undefined) return broken("unknown type id " + tid);
  const r = outcome(() => T.decode(data));
  const same = (o, what) => {
    if (o.ok !== r.ok) return what + (r.ok ? " rejects what decode accepts: " + o.e : " accepts what decode rejects");
    if (!r.ok && where(o.e) !== where(r.e)) return what + " rejects differently: " + where(o.e) + " vs " + where(r.e);
    if (r.ok && !equal(o.v.encode(), r.v.encode())) return what + " decodes differently";
    return "";
  };
  const alts = [
    [outcome(() => T.decode(shifted(data))), "decode at an odd offset"],
    [outcome(() => T.decode(data.slice().buffer)), "decode of an ArrayBuffer"],
    [outcome(() => T.decode(data, { views: true })), "decode with views"],
    [outcome(() => T.decode(shifted(data), { views: true })), "decode with views at an odd offset"],
  ];
  for (const [o, what] of alts) {
    const w = same(o, what);
    if (w) return broken(w);
  }
  // decodeInto the previous value of the type.
  let old = leftover.get(tid);
  if (old === undefined) old = new T();
  const into = outcome(() => T.decodeInto(data, old));
  leftover.set(tid, old);
  {
    const w = same(into, "decodeInto");
    if (w) return broken(w);
    if (!into.ok && !equal(old.encode(), new T().encode())) return broken("a failed decodeInto did not reset the value");
    if (into.ok && into.v !== old) return broken("decodeInto returned another object");
  }
  const pre = outcome(() => T.decodePrefix(data));
  if (r.ok) {
    if (!pre.ok || pre.v[1] !== data.length || !equal(pre.v[0].encode(), r.v.encode())) return broken("decodePrefix disagrees with decode");
  } else if (r.e.rule === "trailing") {
    if (!pre.ok || pre.v[1] !== r.e.offset) return broken("decodePrefix does not stop where decode found trailing bytes");
  } else if (pre.ok || where(pre.e) !== where(r.e)) {
    return broken("decodePrefix rejects differently");
  }
  const msg = new Uint8Array(10 + data.length);
  msg.set([0x53, 0x44, 0x50, 0x32, tid & 0xff, tid >> 8, data.length & 0xff, (data.length >> 8) & 0xff, (data.length >> 16) & 0xff, data.length >>> 24]);
  msg.set(data, 10);
  const viaMsg = [
    [outcome(() => m.decodeMessage(msg)), "decodeMessage"],
    [outcome(() => T.decodeMessage(msg)), "T.decodeMessage"],
    [await outcomeAsync(() => new m.MessageReader(chunks(msg)).read()), "the stream reader"],
  ];
  for (const [o, what] of viaMsg) {
    if (o.ok !== r.ok) return broken(what + " disagrees with decode: " + (o.ok ? "accepts" : o.e));
    if (!r.ok && (o.e.rule !== r.e.rule || o.e.offset !== r.e.offset + 10 || o.e.path !== r.e.path)) {
      return broken(what + " rejects differently: " + where(o.e) + " vs " + where(r.e));
    }
    if (r.ok && !equal(o.v.encode(), r.v.encode())) return broken(what + " decodes differently");
  }
  if (!r.ok) return rejected(r.e);
  const b = r.v.encode();
  if (r.v.encodedSize() !== b.length) return broken("encodedSize differs from the encoding's length");
  let w = intoDisagrees((buf, off) => r.v.encodeInto(buf, off), b);
  if (w) return broken("encodeInto: " + w);
  if (!equal(T.decode(b).encode(), b)) return broken("re-decoding the encoding differs");
  const mb = r.v.encodeMessage();
  if (!equal(mb, msg) || r.v.encodedMessageSize() !== mb.length) return broken("encodeMessage differs from the framed input");
  w = intoDisagrees((buf, off) => r.v.encodeMessageInto(buf, off), mb);
  if (w) return broken("encodeMessageInto: " + w);
  return [OK, b];
}

async function message(data) {
  const r = outcome(() => m.decodeMessage(data));
  if (!r.ok) return rejected(r.e);
  const b = r.v.encodeMessage();
  const s = await outcomeAsync(() => new m.MessageReader(chunks(data)).read());
  if (!s.ok || !equal(s.v.encodeMessage(), b)) return broken("the stream reader disagrees with decodeMessage");
  if (r.v.encodedMessageSize() !== b.length) return broken("encodedMessageSize differs from the message's length");
  return [OK, b];
}

// The maximum payload of OpStream's and OpStreamAll's input: 0 is the
// protocol's "none" (the largest, 2^32 - 1), which the runtime would read as
// its default (64 MiB).
function streamSetup(data) {
  let mx = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
  if (mx === 0) mx = 0xffffffff;
  const reader = new m.MessageReader(chunks(data.subarray(4)), { maxSize: mx });
  const out = [];
  const writer = new m.MessageWriter((c) => { out.push(c); }, { maxSize: mx });
  return { reader, writer, out };
}

async function stream(data) {
  const { reader, writer, out } = streamSetup(data);
  let hello = false;
  try {
    for (;;) {
      const v = await reader.read();
      if (reader.schemaChecked && !hello) {
        await writer.writeHello(); // the stream began with one: answer with ours
        hello = true;
      }
      if (v === undefined) break;
      await writer.writeMessage(v);
    }
  } catch (e) {
    if (!(e instanceof m.DecodeError)) throw e;
    return [REJECTED, enc.encode(e.message)];
  }
  return [OK, concat(out)];
}

async function streamAll(data) {
  const { reader, writer, out } = streamSetup(data);
  const lines = [];
  let hello = false;
  const line = (e) => lines.push(e.rule + " " + e.index + " " + e.offset + " " + (e.skippable ? 1 : 0) + "\n");
  for (;;) {
    let v;
    try {
      v = await reader.read();
    } catch (e) {
      if (!(e instanceof m.DecodeError)) throw e;
      if (reader.schemaChecked && !hello) {
        await writer.writeHello();
        hello = true;
      }
      line(e);
      if (e.skippable) continue;
      try {
        const again = await reader.read();
        lines.push(again === undefined ? "end\n" : "message\n");
      } catch (e2) {
        if (!(e2 instanceof m.DecodeError)) throw e2;
        line(e2);
      }
      break;
    }
    if (reader.schemaChecked && !hello) {
      await writer.writeHello();
      hello = true;
    }
    if (v === undefined) break;
    await writer.writeMessage(v);
  }
  const text = enc.encode(lines.join(""));
  const n = new Uint8Array(4);
  new DataView(n.buffer).setUint32(0, text.length, true);
  return [OK, concat([n, text, ...out])];
}

return async function handle(op, tid, data) {
  switch (op) {
    case 1: return roundtrip(tid, data);
    case 2: return message(data);
    case 3: return stream(data);
    case 4: return streamAll(data);
  }
  return broken("unknown op " + op);
}
}
