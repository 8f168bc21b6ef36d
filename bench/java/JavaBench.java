// The Java benchmark harness (bench/java/run.sh): SDP's Java backend against
// protobuf-java on the same data, plus System.arraycopy as the floor of the
// numeric arrays. The parent process runs each fork in a JVM of its own;
// a fork warms every operation up, then times batches of it in the
// thread's CPU time (ThreadMXBean.getCurrentThreadCpuTime, nanoseconds:
// none of the time spent waiting for a CPU on a busy machine, none of the
// collector's threads either; the process's CPU time has a resolution of
// 10 ms here) and reports the median time per operation; the parent
// reports the median of the forks' medians. A fork's heap (1 GiB) is
// touched when the JVM starts (-XX:+AlwaysPreTouch): on this virtual
// machine, G1's writes into fresh eden pages otherwise took page faults
// that made encodes of 100 KB up to 7 times slower, for every library.
// Allocation per operation (decodeInto's steady state among them) is
// measured with ThreadMXBean.getThreadAllocatedBytes.
package sdpbench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

public final class JavaBench {
    interface Op {
        Object run() throws Exception;
    }

    static volatile Object sink;

    /** One operation of one workload. */
    static final class Case {
        final String workload;
        final String name; // impl/op as bench/run's report names them: sdp/encode, protobuf/decode, new_array/copy
        final Op op;
        final boolean alloc; // report the steady-state bytes allocated per operation
        final int bytes; // the encoding's size

        Case(String workload, String name, Op op, boolean alloc, int bytes) {
            this.workload = workload;
            this.name = name;
            this.op = op;
            this.alloc = alloc;
            this.bytes = bytes;
        }
    }

    static byte[] read(Path data, String workload) throws Exception {
        return Files.readAllBytes(data.resolve(workload + ".sdpb"));
    }

    static List<Case> cases(Path data) throws Exception {
        List<Case> out = new ArrayList<>();

        // registry
        byte[] reg = read(data, "registry");
        sdpbench.sdp.plugins.PluginRegistry r = sdpbench.sdp.plugins.PluginRegistry.decode(reg);
        Bench.PluginRegistry.Builder rb = Bench.PluginRegistry.newBuilder()
                .setTotalPluginCount((int) r.totalPluginCount).setTotalParameterCount((int) r.totalParameterCount);
        for (sdpbench.sdp.plugins.Plugin p : r.plugins) {
            Bench.Plugin.Builder pb = Bench.Plugin.newBuilder().setName(p.name).setManufacturerId(p.manufacturerId)
                    .setComponentType(p.componentType).setComponentSubtype(p.componentSubtype);
            for (sdpbench.sdp.plugins.Parameter q : p.parameters) {
                pb.addParameters(Bench.Parameter.newBuilder().setAddress(q.address).setDisplayName(q.displayName)
                        .setIdentifier(q.identifier).setUnit(q.unit).setMinValue(q.minValue).setMaxValue(q.maxValue)
                        .setDefaultValue(q.defaultValue).setCurrentValue(q.currentValue).setRawFlags((int) q.rawFlags)
                        .setIsWritable(q.isWritable).setCanRamp(q.canRamp));
            }
            rb.addPlugins(pb);
        }
        Bench.PluginRegistry rpb = rb.build();
        add(out, "registry", reg, r, sdpbench.sdp.plugins.PluginRegistry::encode, sdpbench.sdp.plugins.PluginRegistry::decode, new sdpbench.sdp.plugins.PluginRegistry(),
                rpb, Bench.PluginRegistry::parseFrom, false);

        // arrays
        for (String w : new String[] {"u32_1k", "f32_1m"}) {
            byte[] b = read(data, w);
            if (w.startsWith("u32")) {
                sdpbench.sdp.arrays.U32Array v = sdpbench.sdp.arrays.U32Array.decode(b);
                Bench.U32Array.Builder ab = Bench.U32Array.newBuilder();
                for (int x : v.values) {
                    ab.addValues(x);
                }
                add(out, w, b, v, sdpbench.sdp.arrays.U32Array::encode, sdpbench.sdp.arrays.U32Array::decode, new sdpbench.sdp.arrays.U32Array(), ab.build(),
                        Bench.U32Array::parseFrom, true);
            } else {
                sdpbench.sdp.arrays.F32Array v = sdpbench.sdp.arrays.F32Array.decode(b);
                Bench.F32Array.Builder ab = Bench.F32Array.newBuilder();
                for (float x : v.values) {
                    ab.addValues(x);
                }
                add(out, w, b, v, sdpbench.sdp.arrays.F32Array::encode, sdpbench.sdp.arrays.F32Array::decode, new sdpbench.sdp.arrays.F32Array(), ab.build(),
                        Bench.F32Array::parseFrom, true);
            }
        }

        // mesh
        byte[] mb = read(data, "mesh");
        sdpbench.sdp.leaderboard.Mesh mesh = sdpbench.sdp.leaderboard.Mesh.decode(mb);
        Bench.Mesh.Builder meb = Bench.Mesh.newBuilder();
        for (sdpbench.sdp.leaderboard.Triangle t : mesh.triangles) {
            meb.addTriangles(Bench.Triangle.newBuilder().setV0(vec(t.v0)).setV1(vec(t.v1)).setV2(vec(t.v2))
                    .setNormal(vec(t.normal)));
        }
        add(out, "mesh", mb, mesh, sdpbench.sdp.leaderboard.Mesh::encode, sdpbench.sdp.leaderboard.Mesh::decode, new sdpbench.sdp.leaderboard.Mesh(), meb.build(),
                Bench.Mesh::parseFrom, false);

        // log
        byte[] lb = read(data, "log");
        sdpbench.sdp.leaderboard.Logs logs = sdpbench.sdp.leaderboard.Logs.decode(lb);
        Bench.Logs.Builder lgb = Bench.Logs.newBuilder();
        for (sdpbench.sdp.leaderboard.Log l : logs.logs) {
            lgb.addLogs(Bench.Log.newBuilder()
                    .setAddress(Bench.Address.newBuilder().setX0(l.address.x0).setX1(l.address.x1).setX2(l.address.x2)
                            .setX3(l.address.x3))
                    .setIdentity(l.identity).setUserid(l.userid).setDate(l.date).setRequest(l.request).setCode(l.code)
                    .setSize(l.size));
        }
        add(out, "log", lb, logs, sdpbench.sdp.leaderboard.Logs::encode, sdpbench.sdp.leaderboard.Logs::decode, new sdpbench.sdp.leaderboard.Logs(), lgb.build(),
                Bench.Logs::parseFrom, false);

        // struct A
        byte[] ab = read(data, "struct_a");
        sdpbench.sdp.leaderboard.StructA a = sdpbench.sdp.leaderboard.StructA.decode(ab);
        Bench.StructA apb = Bench.StructA.newBuilder().setName(a.name).setBirthDay(a.birthDay).setPhone(a.phone)
                .setSiblings(a.siblings).setSpouse(a.spouse).setMoney(a.money).build();
        add(out, "struct_a", ab, a, sdpbench.sdp.leaderboard.StructA::encode, sdpbench.sdp.leaderboard.StructA::decode, new sdpbench.sdp.leaderboard.StructA(), apb,
                Bench.StructA::parseFrom, false);
        return out;
    }

    static Bench.Vector3 vec(sdpbench.sdp.leaderboard.Vector3 v) {
        return Bench.Vector3.newBuilder().setX(v.x).setY(v.y).setZ(v.z).build();
    }

    interface Decoder<T> {
        T decode(byte[] b) throws Exception;
    }

    interface Encoder<T> {
        byte[] encode(T v) throws Exception;
    }

    static <S, P extends com.google.protobuf.MessageLite> void add(List<Case> out, String w, byte[] sdp, S value,
            Encoder<S> encode, Decoder<S> decode, Object kept, P pb, Decoder<P> pbDecode, boolean floor) throws Exception {
        // Self-checks: SDP re-encodes its input byte for byte; protobuf parses what it wrote.
        byte[] again = encode.encode(value);
        if (!Arrays.equals(again, sdp)) {
            throw new IllegalStateException(w + ": SDP does not re-encode its input");
        }
        byte[] pbBytes = pb.toByteArray();
        if (!pbDecode.decode(pbBytes).equals(pb)) {
            throw new IllegalStateException(w + ": protobuf does not parse what it wrote");
        }
        int n = sdp.length;
        out.add(new Case(w, "sdp/encode", () -> encode.encode(value), true, n));
        out.add(new Case(w, "sdp/decode", () -> decode.decode(sdp), true, n));
        out.add(new Case(w, "sdp/decode_reuse", () -> {
            decodeInto(kept, sdp);
            return kept;
        }, true, n));
        out.add(new Case(w, "protobuf/encode", pb::toByteArray, true, pbBytes.length));
        out.add(new Case(w, "protobuf/decode", () -> pbDecode.decode(pbBytes), true, pbBytes.length));
        if (floor) {
            out.add(new Case(w, "new_array/copy", () -> {
                byte[] c = new byte[sdp.length];
                System.arraycopy(sdp, 0, c, 0, sdp.length);
                return c;
            }, true, n));
        }
        System.err.printf("%s: SDP %d bytes, protobuf %d bytes%n", w, sdp.length, pbBytes.length);
    }

    static void decodeInto(Object v, byte[] b) throws Exception {
        if (v instanceof sdpbench.sdp.plugins.PluginRegistry) {
            ((sdpbench.sdp.plugins.PluginRegistry) v).decodeInto(b);
        } else if (v instanceof sdpbench.sdp.arrays.U32Array) {
            ((sdpbench.sdp.arrays.U32Array) v).decodeInto(b);
        } else if (v instanceof sdpbench.sdp.arrays.F32Array) {
            ((sdpbench.sdp.arrays.F32Array) v).decodeInto(b);
        } else if (v instanceof sdpbench.sdp.leaderboard.Mesh) {
            ((sdpbench.sdp.leaderboard.Mesh) v).decodeInto(b);
        } else if (v instanceof sdpbench.sdp.leaderboard.Logs) {
            ((sdpbench.sdp.leaderboard.Logs) v).decodeInto(b);
        } else {
            ((sdpbench.sdp.leaderboard.StructA) v).decodeInto(b);
        }
    }

    /** One fork: every case warmed up, then timed; prints "workload op ns alloc" lines. */
    static void fork(Path data, boolean quick, String only) throws Exception {
        long warm = quick ? 50_000_000L : 400_000_000L;
        int rounds = quick ? 3 : 15;
        long batchNs = quick ? 5_000_000L : 25_000_000L;
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        for (Case c : cases(data)) {
            if (!only.isEmpty() && !Arrays.asList(only.split(",")).contains(c.workload)) {
                continue;
            }
            // Warm-up, and the batch size that takes about batchNs.
            long n = 1;
            long start = mx.getCurrentThreadCpuTime();
            while (mx.getCurrentThreadCpuTime() - start < warm) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (long i = 0; i < n; i++) {
                    sink = c.op.run();
                }
                if (mx.getCurrentThreadCpuTime() - t0 < batchNs / 2) {
                    n *= 2;
                }
            }
            double[] per = new double[rounds];
            for (int k = 0; k < rounds; k++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (long i = 0; i < n; i++) {
                    sink = c.op.run();
                }
                per[k] = (double) (mx.getCurrentThreadCpuTime() - t0) / n;
            }
            Arrays.sort(per);
            long alloc = -1;
            if (c.alloc) {
                long a0 = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < 100; i++) {
                    sink = c.op.run();
                }
                alloc = (mx.getThreadAllocatedBytes(tid) - a0) / 100;
            }
            System.out.printf("%s %s %.1f %.1f %.1f %d %d %d%n", c.workload, c.name, per[rounds / 2], per[0], per[rounds - 1],
                    n, alloc, c.bytes);
            System.out.flush();
        }
    }

    public static void main(String[] args) throws Exception {
        Path data = null;
        boolean quick = false;
        boolean child = false;
        String only = "";
        int forks = 3;
        String out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
            case "--data":
                data = Path.of(args[++i]);
                break;
            case "--quick":
                quick = true;
                forks = 1;
                break;
            case "--only":
                only = args[++i];
                break;
            case "--fork":
                child = true;
                break;
            case "--forks":
                forks = Integer.parseInt(args[++i]);
                break;
            case "--out":
                out = args[++i];
                break;
            case "--workloads":
                i++; // bench/run's list: this harness measures the workloads of cases() that --only keeps
                break;
            default:
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("--data DIR is required");
        }
        if (child) {
            fork(data, quick, only);
            return;
        }
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int f = 0; f < forks; f++) {
            List<String> cmd = new ArrayList<>(List.of(java, "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-cp",
                    System.getProperty("java.class.path"),
                    "sdpbench.JavaBench", "--fork", "--data", data.toString()));
            if (quick) {
                cmd.add("--quick");
            }
            if (!only.isEmpty()) {
                cmd.add("--only");
                cmd.add(only);
            }
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            for (String line : new String(p.getInputStream().readAllBytes()).split("\n")) {
                String[] t = line.trim().split(" ");
                if (t.length == 8) {
                    double[] v = new double[6];
                    for (int i = 0; i < 6; i++) {
                        v[i] = Double.parseDouble(t[2 + i]);
                    }
                    results.computeIfAbsent(t[0] + " " + t[1], k -> new ArrayList<>()).add(v);
                }
            }
            if (p.waitFor() != 0) {
                throw new IllegalStateException("fork " + f + " failed");
            }
        }
        Map<String, Double> med = new LinkedHashMap<>();
        StringBuilder json = new StringBuilder();
        System.out.printf("%-10s %-20s %14s %14s%n", "workload", "operation", "ns/op (median)", "alloc B/op");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            List<double[]> fs = e.getValue();
            double[] ns = fs.stream().mapToDouble(x -> x[0]).sorted().toArray();
            double m = ns[ns.length / 2];
            double lo = fs.stream().mapToDouble(x -> x[1]).min().getAsDouble();
            double hi = fs.stream().mapToDouble(x -> x[2]).max().getAsDouble();
            med.put(e.getKey(), m);
            String[] k = e.getKey().split(" ");
            String[] io = k[1].split("/");
            double alloc = fs.get(0)[4];
            System.out.printf("%-10s %-20s %14.1f %14s%n", k[0], k[1], m, alloc < 0 ? "" : String.format("%.0f", alloc));
            json.append(json.length() == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "{\"impl\": \"%s\", \"workload\": \"%s\", \"op\": \"%s\", \"median_ns\": %.1f, \"min_ns\": %.1f, "
                            + "\"max_ns\": %.1f, \"runs\": %d, \"iters\": %d, \"bytes\": %d, \"alloc_bytes\": %.0f, \"allocs\": -1}",
                    io[0], k[0], io[1], m, lo, hi, fs.size(), (long) fs.get(0)[3], (long) fs.get(0)[5], alloc));
        }
        System.out.println();
        for (String w : new String[] {"registry", "u32_1k", "f32_1m", "mesh", "log", "struct_a"}) {
            Double se = med.get(w + " sdp/encode"), sd = med.get(w + " sdp/decode"), pe = med.get(w + " protobuf/encode"),
                    pd = med.get(w + " protobuf/decode"), cp = med.get(w + " new_array/copy");
            if (se == null) {
                continue;
            }
            System.out.printf("%-10s encode %.2fx protobuf-java, decode %.2fx%s%n", w, pe / se, pd / sd,
                    cp == null ? "" : String.format(", decode at %.2fx System.arraycopy", sd / cp));
        }
        if (out != null) {
            String toolchain = "OpenJDK " + System.getProperty("java.version") + ", "
                    + System.getProperty("sdpbench.protobuf", "protobuf-java");
            Files.writeString(Path.of(out), "{\"language\": \"java\", \"toolchain\": \"" + toolchain + "\", \"quick\": " + quick
                    + ", \"results\": [" + json + "\n], \"gaps\": []}\n");
        }
    }
}
