// The measurements of the TypeScript/JavaScript harness (bench/ts), shared
// by Node (harness.mjs) and headless Chromium (browser.html): see
// harness.mjs for what is measured and how.

const RUNS = 11;
const TARGET_NS = 5e6;

/**
 * Runs the workloads. env: { workloads: [{ name, schema, type, kind }],
 * quick, impls (a Set; empty: all), now() (nanoseconds), log(line),
 * load(name) -> Promise<{ sdpb: Uint8Array, jsonText: string }>,
 * importPkg(schema) -> Promise<module>, cbor (node-cbor or undefined) }.
 * Returns { results, gaps } in the suite's format.
 */
export async function measure(env) {
  const { quick, impls, now } = env;
  const results = [];
  const gaps = [];
  let sink;
  const want = (impl) => impls.size === 0 || impls.has(impl);
  const gap = (impl, workload, reason) => gaps.push({ impl, workload, reason });

  function run(impl, workload, op, nbytes, f) {
    if (!want(impl)) return;
    if (quick && nbytes > 1 << 20 && !(impl === "sdp" && (op === "encode" || op === "decode"))) return;
    env.log(`ts ${impl.padEnd(10)} ${workload.padEnd(16)} ${op}`);
    let samples;
    let iters = 1;
    if (quick) {
      const t0 = now();
      sink = f();
      samples = [now() - t0];
    } else {
      let t0 = now();
      sink = f();
      if (now() - t0 > 0.5e9) {
        // Above 0.5 s: one more call, timed.
        t0 = now();
        sink = f();
        samples = [now() - t0];
      }
    }
    if (samples === undefined) {
      for (let i = 0; i < 3; i++) sink = f(); // warm up: V8 optimizes
      // The time of one call: the least of three calibrations (on a shared
      // machine one can be stretched by a wait), each doubling its calls
      // until they take 1/8 of a run.
      let per = Infinity;
      for (let c = 0; c < 3; c++) {
        let n = 1;
        let el;
        for (;;) {
          const t0 = now();
          for (let i = 0; i < n; i++) sink = f();
          el = now() - t0;
          if (el >= TARGET_NS / 8 || n >= 1 << 30) break;
          n *= 2;
        }
        per = Math.min(per, el / n);
      }
      iters = Math.max(1, Math.floor(TARGET_NS / Math.max(per, 1)));
      const runs = per > 50e6 ? 3 : RUNS;
      samples = [];
      for (let r = 0; r < runs; r++) {
        const t0 = now();
        for (let i = 0; i < iters; i++) sink = f();
        samples.push((now() - t0) / iters);
      }
    }
    samples.sort((a, b) => a - b);
    results.push({
      impl, workload, op, median_ns: samples[samples.length >> 1], min_ns: samples[0], max_ns: samples[samples.length - 1],
      runs: samples.length, iters, bytes: nbytes, allocs: -1,
    });
  }

  const te = new TextEncoder();
  const td = new TextDecoder();
  const pkgs = {};

  for (const w of env.workloads) {
    const { sdpb, jsonText } = await env.load(w.name);
    if (!(w.schema in pkgs)) {
      try {
        pkgs[w.schema] = await env.importPkg(w.schema);
      } catch (e) {
        pkgs[w.schema] = null;
        gap("sdp", w.name, "not built: importing the generated " + w.schema + " package: " + e);
      }
    }
    const pkg = pkgs[w.schema];
    const T = pkg?.[w.type];
    if (T !== undefined) {
      let v;
      try {
        v = T.decode(sdpb);
        if (!equal(v.encode(), sdpb)) throw new Error("re-encoding differs from the .sdpb");
      } catch (e) {
        gap("sdp", w.name, "self-check failed: " + e.message);
        v = undefined;
      }
      if (v !== undefined) {
        const n = sdpb.length;
        run("sdp", w.name, "encode", n, () => v.encode());
        const kept = new Uint8Array(n);
        run("sdp", w.name, "encode_reuse", n, () => v.encodeInto(kept, 0));
        run("sdp", w.name, "decode", n, () => T.decode(sdpb));
        const into = T.decode(sdpb);
        run("sdp", w.name, "decode_reuse", n, () => T.decodeInto(sdpb, into));
        run("sdp", w.name, "roundtrip", n, () => T.decode(v.encode()));
        const msg = v.encodeMessage();
        run("sdp", w.name, "msg_encode", msg.length, () => v.encodeMessage());
        run("sdp", w.name, "msg_decode", msg.length, () => pkg.decodeMessage(msg));
        if (w.kind === "array" || w.name === "mesh") {
          if (!equal(T.decode(sdpb, { views: true }).encode(), sdpb)) gap("sdp_view", w.name, "self-check failed");
          else run("sdp_view", w.name, "decode", n, () => T.decode(sdpb, { views: true }));
        }
        if (w.kind === "array" && w.name !== "mesh") {
          // The elements after the u32 count.
          const elems = sdpb.subarray(4);
          run("slice", w.name, "decode", elems.length, () => elems.slice());
          const dst = new Uint8Array(elems.length);
          run("set", w.name, "encode_reuse", elems.length, () => dst.set(elems));
        }
      }
    } else if (pkg !== null) {
      gap("sdp", w.name, "not built: the " + w.schema + " package has no " + w.type);
    }

    const doc = JSON.parse(jsonText);
    const jsonBytes = te.encode(jsonText);
    run("json_js", w.name, "encode", jsonBytes.length, () => te.encode(JSON.stringify(doc)));
    run("json_js", w.name, "decode", jsonBytes.length, () => JSON.parse(td.decode(jsonBytes)));
    if (env.cbor !== undefined && want("cbor")) {
      const big = { highWaterMark: Math.max(1 << 16, 2 * jsonBytes.length) };
      try {
        const c = env.cbor.encodeOne(doc, big);
        run("cbor", w.name, "encode", c.length, () => env.cbor.encodeOne(doc, big));
        run("cbor", w.name, "decode", c.length, () => env.cbor.decodeFirstSync(c));
      } catch (e) {
        gap("cbor", w.name, "failed: " + e);
      }
    }
  }
  void sink;
  return { results, gaps };
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
