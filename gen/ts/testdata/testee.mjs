// The Node testee of the conformance protocol (conformance/testee.go).
//
// Usage: node testee.mjs PACKAGE/index.js: imports the generated package and
// answers requests on stdin until it closes (the answers: testee-core.mjs).
import { handler, concat } from "./testee-core.mjs";

const handle = handler(await import(process.argv[2]));
const broken = (s) => [2, new TextEncoder().encode(s)];

// Chunks of stdin wait in a list and are joined once a request is whole.
let parts = [];
let have = 0;
let need = 4; // the bytes of the next request (with its length), once known
for await (const c of process.stdin) {
  // A Uint8Array, not a Buffer: Buffer.slice makes no copy.
  parts.push(new Uint8Array(c.buffer, c.byteOffset, c.length));
  have += c.length;
  while (have >= need) {
    let buf = parts.length === 1 ? parts[0] : concat(parts);
    if (need === 4) {
      need = 4 + new DataView(buf.buffer, buf.byteOffset).getUint32(0, true);
      parts = [buf];
      continue;
    }
    const req = buf.subarray(4, need);
    buf = buf.subarray(need);
    parts = [buf];
    have = buf.length;
    need = 4;
    let status, body;
    try {
      [status, body] = await handle(req[0], req[1] | (req[2] << 8), req.subarray(3));
    } catch (e) {
      [status, body] = broken("unexpected exception: " + (e && e.stack ? e.stack : e));
    }
    const head = new Uint8Array(5);
    new DataView(head.buffer).setUint32(0, body.length + 1, true);
    head[4] = status;
    process.stdout.write(concat([head, body]));
  }
}
