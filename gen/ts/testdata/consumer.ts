// A consumer of the JavaScript packages' declarations (testdata/js/*/index.d.ts):
// TestCompile type-checks it, so the .d.ts files describe a usable API.
import { PluginRegistry, Plugin, decodeMessage, MessageReader, MessageWriter, DecodeError } from "./js/plugins/index.js";
import type { DecodeOptions } from "./js/plugins/index.js";
import { Shape, Small, Unions } from "./js/enums_unions/index.js";
import { Optionals } from "./js/optionals/index.js";

const opts: DecodeOptions = { maxDepth: 10, views: true };
const reg = new PluginRegistry({ plugins: [new Plugin({ name: "EQ" })] });
const bytes: Uint8Array = reg.encode();
const back: PluginRegistry = PluginRegistry.decode(bytes, opts);
const n: number = back.encodedSize() + reg.encodeInto(new Uint8Array(1000), 0);
const [again, used]: [PluginRegistry, number] = PluginRegistry.decodePrefix(bytes);
PluginRegistry.decodeInto(bytes, again);
const id: number = PluginRegistry.TYPE_ID + used + n;
const fp: bigint = PluginRegistry.FINGERPRINT;
const m = decodeMessage(reg.encodeMessage());
if (m instanceof PluginRegistry) {
  m.plugins.length.toFixed();
}
const small: Small = Small.Two;
const shape: Shape = { kind: "Rect", value: { width: 1, height: 2 } };
const h = new Unions();
const o = new Optionals({ maybe_u8: 3, maybe_maybe: [undefined] });
async function read(s: ReadableStream<Uint8Array>): Promise<void> {
  const r = new MessageReader(s, { maxSize: 1 << 20 });
  for await (const x of r) x.messageTypeId();
  const w = new MessageWriter((c: Uint8Array) => void c);
  await w.writeHello();
  await w.writeMessage(reg);
}
try {
  PluginRegistry.decode(new Uint8Array(1));
  Shape.encode(Shape.decode(new Uint8Array([0])));
} catch (e) {
  if (e instanceof DecodeError) console.log(e.rule, e.offset, e.path);
}
export { id, fp, small, shape, h, o, read };
