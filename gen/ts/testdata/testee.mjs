// The Node testee of the conformance protocol (conformance/testee.go).
//
// Usage: node testee.mjs PACKAGE/index.js: imports the generated package and
// answers requests on stdin until it closes (the answers: testee-core.mjs).
import { handler, concat } from "./testee-core.mjs";

const handle = handler(await import(process.argv[2]));
const broken = (s) => [2, new TextEncoder().encode(s)];

let buf = new Uint8Array(0);
for await (const c of process.stdin) {
  buf = concat([buf, c]);
  for (;;) {
    if (buf.length < 4) break;
    const n = new DataView(buf.buffer, buf.byteOffset).getUint32(0, true);
    if (buf.length < 4 + n) break;
    const req = buf.slice(4, 4 + n);
    buf = buf.slice(4 + n);
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
