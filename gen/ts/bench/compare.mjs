// Encodes and decodes the audio plugin registry (examples/node/registry, the
// schema of conformance/schemas/plugins.sdp) with the generated JavaScript
// and with JSON and CBOR (Debian's node-cbor, when installed), and prints the
// sizes and times. protobufjs is not in Debian 12, so it is not measured.
//
//     NODE_PATH=/usr/share/nodejs node gen/ts/bench/compare.mjs
//
// The benchmark suite's harness (bench/run --langs ts: bench/ts/harness.mjs,
// and bench/tschromium in headless Chromium) measures every workload of
// bench/workloads.tsv the same way, beside the other languages.
import { createRequire } from "node:module";
import { Parameter, Plugin, PluginRegistry } from "../../../examples/node/registry/index.js";

const require = createRequire(import.meta.url);
let cbor;
try {
  cbor = require("cbor");
} catch {
  console.log("cbor not found (apt-get install node-cbor; NODE_PATH=/usr/share/nodejs): not measured");
}

// 62 plugins with 1,759 parameters, as conformance/datagen's registry_62.
const plugins = [];
let count = 0;
for (let i = 0; i < 62; i++) {
  const parameters = [];
  const n = 10 + ((i * 37) % 40);
  for (let j = 0; j < n && count < 1759; j++, count++) {
    parameters.push(new Parameter({
      address: BigInt(i * 1000 + j), display_name: "Band " + j + " Gain", identifier: "band" + j + "_gain",
      unit: j % 3 ? "dB" : "Hz", min_value: -30, max_value: 30, default_value: 0, current_value: j / 7,
      raw_flags: 0x40000000 | j, is_writable: true, can_ramp: j % 2 === 0,
    }));
  }
  plugins.push(new Plugin({ name: "Plugin " + i, manufacturer_id: "FabF", component_type: "aufx", component_subtype: "pq" + i, parameters }));
}
const reg = new PluginRegistry({ plugins, total_plugin_count: 62, total_parameter_count: count });
// A plain object for JSON and CBOR (JSON has no bigint: addresses as numbers).
const plain = JSON.parse(JSON.stringify(reg, (k, v) => (typeof v === "bigint" ? Number(v) : v)));

function bench(name, fn) {
  for (let i = 0; i < 20; i++) fn();
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const n = 20;
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / n / 1e6);
  }
  return best;
}

const rows = [];
const sdp = reg.encode();
rows.push(["SDP (--lang js)", sdp.length, bench("enc", () => reg.encode()), bench("dec", () => PluginRegistry.decode(sdp))]);
const te = new TextEncoder(), td = new TextDecoder();
const json = te.encode(JSON.stringify(plain));
rows.push(["JSON (stringify + UTF-8)", json.length, bench("enc", () => te.encode(JSON.stringify(plain))), bench("dec", () => JSON.parse(td.decode(json)))]);
if (cbor) {
  const big = { highWaterMark: 1 << 24 };
  const c = cbor.encodeOne(plain, big);
  rows.push(["CBOR (node-cbor)", c.length, bench("enc", () => cbor.encodeOne(plain, big)), bench("dec", () => cbor.decodeFirstSync(c))]);
}
console.log("format                     bytes   encode ms   decode ms");
for (const [n, size, e, d] of rows) {
  console.log(n.padEnd(24), String(size).padStart(8), e.toFixed(3).padStart(11), d.toFixed(3).padStart(11));
}
