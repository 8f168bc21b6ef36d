// Builds a plugin registry, encodes and decodes it, and reads a stream of
// messages from a Blob through the WHATWG stream API; writes what happened
// into the page.
import { Parameter, Plugin, PluginRegistry, MessageReader, MessageWriter, DecodeError } from "./registry/index.js";

const lines = [];
const log = (s) => lines.push(s);

const reg = new PluginRegistry({
  plugins: [new Plugin({
    name: "Pro-Q 3", manufacturer_id: "FabF",
    parameters: [new Parameter({ address: 1n, display_name: "Band 1 Gain", unit: "dB", min_value: -30, max_value: 30 })],
  })],
  total_plugin_count: 1,
  total_parameter_count: 1,
});
const bytes = reg.encode();
log(`encoded ${bytes.length} bytes`);
const back = PluginRegistry.decode(bytes);
log(`decoded: ${back.plugins[0].name}, ${back.plugins[0].parameters[0].display_name}`);
try {
  PluginRegistry.decode(bytes.subarray(0, bytes.length - 1));
} catch (e) {
  if (!(e instanceof DecodeError)) throw e;
  log(`a cut input is refused: rule ${e.rule} at ${e.offset} (${e.path})`);
}

// Messages into a Blob, then back out of its ReadableStream.
const chunks = [];
const writer = new MessageWriter((c) => { chunks.push(c); });
await writer.writeHello();
await writer.writeMessage(reg);
await writer.writeMessage(reg.plugins[0]);
const reader = new MessageReader(new Blob(chunks).stream(), { requireHello: true });
for await (const m of reader) {
  log(`read a ${m.constructor.name} from a stream (schema checked: ${reader.schemaChecked})`);
}
log("done");
document.getElementById("out").textContent = lines.join("\n");
