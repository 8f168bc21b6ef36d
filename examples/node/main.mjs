// The JavaScript code sdp generates, on the audio plugin registry: builds a
// registry, encodes it, decodes it back, shows a rejected input, streams a
// few messages through a WHATWG stream, and prints the sizes.
//
//     node examples/node/main.mjs
//
// The package registry/ is generated from registry.sdp (plain ES modules
// with .d.ts declarations; --lang ts writes TypeScript sources instead):
//
//     go run ./cmd/sdp gen --lang js --out examples/node/registry examples/node/registry.sdp
//
// (go test ./gen/ts checks that it is up to date and runs this example).
// It needs Node 18 or newer and nothing else.
import {
  Parameter, Plugin, PluginRegistry, DecodeError, MessageReader, MessageWriter, decodeMessage,
} from "./registry/index.js";

const plugins = [];
for (let i = 0; i < 62; i++) {
  const parameters = [];
  for (let j = 0; j < 28; j++) {
    parameters.push(new Parameter({
      address: BigInt(i * 1000 + j),
      display_name: "Gain " + j,
      identifier: "gain_" + j,
      unit: "dB",
      min_value: -60,
      max_value: 12,
      current_value: 0.5,
      is_writable: true,
    }));
  }
  plugins.push(new Plugin({ name: "Plugin " + i, manufacturer_id: "Acme", component_type: "aufx", parameters }));
}
const reg = new PluginRegistry({ plugins, total_plugin_count: 62, total_parameter_count: 62 * 28 });

const bytes = reg.encode();
console.log(`${reg.plugins.length} plugins encode to ${bytes.length} bytes (encodedSize ${reg.encodedSize()})`);
const back = PluginRegistry.decode(bytes);
const same = back.encode().every((b, i) => b === bytes[i]);
console.log(`decoded back: ${back.plugins[61].parameters[27].display_name}, ${same ? "equal to the original" : "DIFFERENT"}`);

try {
  PluginRegistry.decode(bytes.subarray(0, 100));
} catch (e) {
  if (!(e instanceof DecodeError)) throw e;
  console.log(`a cut input: ${e} (rule ${e.rule})`);
}

// A stream: a hello, then three messages, through a TransformStream.
const { readable, writable } = new TransformStream();
const writer = new MessageWriter(writable);
const reader = new MessageReader(readable, { requireHello: true });
const writing = (async () => {
  await writer.writeHello();
  await writer.writeMessage(reg.plugins[0].parameters[0]);
  await writer.writeMessage(reg.plugins[1]);
  await writer.writeMessage(new PluginRegistry());
  await writer.close();
})();
for await (const m of reader) {
  console.log(`read a ${m.constructor.name} (type id ${m.messageTypeId()}), checked against the hello: ${reader.schemaChecked}`);
}
await writing;
console.log(`one message: ${decodeMessage(reg.plugins[2].encodeMessage()).name}`);
