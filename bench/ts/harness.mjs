// The TypeScript/JavaScript harness of the SDP benchmark suite (Node).
//
// Measures, on the workloads of bench/workloads.tsv and the data bench/run
// prepared (<workload>.json and <workload>.sdpb):
//
//   sdp       the generated JavaScript (sdp gen --lang js; the TypeScript
//             package compiles to the same code): encode, encodeInto a kept
//             buffer, decode, decodeInto the previous value, roundtrip,
//             message encode / decode (the dispatcher decodeMessage)
//   sdp_view  decode with { views: true } (numeric arrays are typed arrays
//             over the input where aligned), on the workloads with arrays
//   json_js   JSON.stringify + TextEncoder / TextDecoder + JSON.parse of the
//             workload's JSON document (what web UIs use now)
//   cbor      node-cbor (Debian's node-cbor) on the same document
//   slice     floor for the array workloads: Uint8Array.prototype.slice of
//             the elements' bytes (a copy into a new buffer) (op decode)
//   set       floor for the array workloads: Uint8Array.prototype.set of the
//             elements' bytes into a kept buffer (op encode_reuse)
//
// protobufjs is not measured: it is not packaged in Debian 12 and this
// machine has no npm registry.
//
// Time is the process's CPU time (process.cpuUsage: user + system, all
// threads, V8's GC and compiler threads included), as the suite's other
// harnesses measure; in Chromium (bench/tschromium) performance.now(), wall
// time. Each cell is the median of 11 runs of ~5 ms after a warm-up that
// lets V8 optimize (3 runs above 50 ms per operation). --quick
// calls each operation once, and on the workloads of more than 1 MiB only
// SDP's encode and decode (the peers take seconds there). One call after
// warm-up above 0.5 s is the sample. Allocations are not measured (-1).
//
// Usage: node harness.mjs --gen DIR --workloads bench/workloads.tsv
//        --data bench/build/data [--quick] [--only a,b] [--impls sdp,json]
//        [--out FILE]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { measure } from "./core.mjs";

const args = { quick: false, only: new Set(), impls: new Set() };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const val = () => process.argv[++i];
  if (a === "--quick") args.quick = true;
  else if (a === "--gen") args.gen = val();
  else if (a === "--workloads") args.workloads = val();
  else if (a === "--data") args.data = val();
  else if (a === "--out") args.out = val();
  else if (a === "--only") val().split(",").filter(Boolean).forEach((x) => args.only.add(x));
  else if (a === "--impls") val().split(",").filter(Boolean).forEach((x) => args.impls.add(x));
  else throw new Error("bench-ts: unknown argument " + a);
}

const workloads = [];
for (const line of readFileSync(args.workloads, "utf8").split("\n")) {
  if (line.startsWith("#") || line.trim() === "") continue;
  const [name, schema, type, , kind] = line.split("\t");
  if (args.only.size > 0 && !args.only.has(name)) continue;
  workloads.push({ name, schema, type, kind });
}

const require = createRequire(import.meta.url);
let cbor;
const early = [];
try {
  cbor = require("cbor");
} catch (e) {
  early.push({ impl: "cbor", workload: "", reason: "not built: node-cbor is not installed (apt-get install node-cbor; NODE_PATH=/usr/share/nodejs)" });
}
early.push({ impl: "protobufjs", workload: "", reason: "not measured: protobufjs is not packaged in Debian 12 and there is no npm registry here" });

const { results, gaps } = await measure({
  workloads,
  quick: args.quick,
  impls: args.impls,
  // The process's CPU time (user + system, all threads: getrusage), as
  // the other harnesses of the suite: on a shared machine wall-clock time
  // counts the waits for a CPU.
  now: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) * 1000;
  },
  log: (line) => process.stderr.write(line + "\n"),
  load: async (name) => ({
    sdpb: new Uint8Array(readFileSync(join(args.data, name + ".sdpb"))),
    jsonText: readFileSync(join(args.data, name + ".json"), "utf8"),
  }),
  importPkg: (schema) => import(pathToFileURL(join(args.gen, schema, "index.js")).href),
  cbor,
});

let cborVersion = "";
try {
  cborVersion = " node-cbor " + require("cbor/package.json").version;
} catch (e) {
  // not installed: the gap says so
}
const out = { language: "ts", toolchain: "node " + process.version + cborVersion, quick: args.quick, results, gaps: [...early, ...gaps] };
const text = JSON.stringify(out, null, 1) + "\n";
if (args.out) writeFileSync(args.out, text);
else process.stdout.write(text);
