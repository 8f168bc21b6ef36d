// The Java benchmark harness (bench/java/run.sh): SDP's Java backend against
// protobuf-java on the same data, plus System.arraycopy as the floor of the
// numeric arrays. The parent process runs each fork in a JVM of its own;
// a fork warms every operation up, then times batches of it and reports
// the median time per operation; the parent reports the median of the
// forks' medians. decodeInto's steady-state allocation is measured with
// ThreadMXBean.getThreadAllocatedBytes.
package sdpbench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class JavaBench {
    interface Op {
        Object run() throws Exception;
    }

    static volatile Object sink;

    /** One operation of one workload. */
    static final class Case {
        final String workload;
        final String name;
        final Op op;
        final boolean alloc; // report the steady-state bytes allocated per operation

        Case(String workload, String name, Op op, boolean alloc) {
            this.workload = workload;
            this.name = name;
            this.op = op;
            this.alloc = alloc;
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
        out.add(new Case(w, "sdp_encode", () -> encode.encode(value), false));
        out.add(new Case(w, "sdp_decode", () -> decode.decode(sdp), false));
        out.add(new Case(w, "sdp_decode_into", () -> {
            decodeInto(kept, sdp);
            return kept;
        }, true));
        out.add(new Case(w, "pb_encode", pb::toByteArray, false));
        out.add(new Case(w, "pb_decode", () -> pbDecode.decode(pbBytes), false));
        if (floor) {
            out.add(new Case(w, "arraycopy", () -> {
                byte[] c = new byte[sdp.length];
                System.arraycopy(sdp, 0, c, 0, sdp.length);
                return c;
            }, false));
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
            long start = System.nanoTime();
            while (System.nanoTime() - start < warm) {
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    sink = c.op.run();
                }
                if (System.nanoTime() - t0 < batchNs / 2) {
                    n *= 2;
                }
            }
            double[] per = new double[rounds];
            for (int k = 0; k < rounds; k++) {
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    sink = c.op.run();
                }
                per[k] = (double) (System.nanoTime() - t0) / n;
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
            System.out.printf("%s %s %.1f %d%n", c.workload, c.name, per[rounds / 2], alloc);
            System.out.flush();
        }
    }

    public static void main(String[] args) throws Exception {
        Path data = null;
        boolean quick = false;
        boolean child = false;
        String only = "";
        int forks = 3;
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
            List<String> cmd = new ArrayList<>(List.of(java, "-Xms1g", "-Xmx1g", "-cp", System.getProperty("java.class.path"),
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
                if (t.length == 4) {
                    results.computeIfAbsent(t[0] + " " + t[1], k -> new ArrayList<>())
                            .add(new double[] {Double.parseDouble(t[2]), Double.parseDouble(t[3])});
                }
            }
            if (p.waitFor() != 0) {
                throw new IllegalStateException("fork " + f + " failed");
            }
        }
        Map<String, Double> med = new LinkedHashMap<>();
        System.out.printf("%-10s %-16s %14s %14s%n", "workload", "operation", "ns/op (median)", "alloc B/op");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            double[] ns = e.getValue().stream().mapToDouble(x -> x[0]).sorted().toArray();
            double m = ns[ns.length / 2];
            med.put(e.getKey(), m);
            String[] k = e.getKey().split(" ");
            double alloc = e.getValue().get(0)[1];
            System.out.printf("%-10s %-16s %14.1f %14s%n", k[0], k[1], m, alloc < 0 ? "" : String.format("%.0f", alloc));
        }
        System.out.println();
        for (String w : new String[] {"registry", "u32_1k", "f32_1m", "mesh", "log", "struct_a"}) {
            Double se = med.get(w + " sdp_encode"), sd = med.get(w + " sdp_decode"), pe = med.get(w + " pb_encode"),
                    pd = med.get(w + " pb_decode"), cp = med.get(w + " arraycopy");
            if (se == null) {
                continue;
            }
            System.out.printf("%-10s encode %.2fx protobuf-java, decode %.2fx%s%n", w, pe / se, pd / sd,
                    cp == null ? "" : String.format(", decode at %.2fx System.arraycopy", sd / cp));
        }
    }
}
