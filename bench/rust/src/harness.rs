//! The measurement loop (same method as the other harnesses), a counting
//! global allocator, the workload table and the JSON output.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// CPU time of the process (user + system, all threads) in ns: on a shared
/// machine it leaves out the time the benchmark waited for a CPU.
fn cpu_ns() -> f64 {
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid, writable timespec (64-bit Linux layout).
    unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
}

/// Counts allocations (alloc, alloc_zeroed and realloc calls).
pub struct Counting;

pub static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[allow(dead_code)] // schema, kind and sdpb are read by the SDP benchmarks (src/sdp.rs)
pub struct Workload {
    pub name: String,
    pub schema: String,
    pub ty: String,
    pub kind: String,
    pub json: Vec<u8>,
    pub sdpb: Vec<u8>,
}

pub struct Harness {
    pub quick: bool,
    out: Option<String>,
    results: Vec<String>,
    gaps: Vec<String>,
    pub workloads: Vec<Workload>,
    /// --impls: only these implementations are timed (empty: all).
    impls: Vec<String>,
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

impl Harness {
    pub fn from_args() -> Harness {
        let mut list = "bench/workloads.tsv".to_string();
        let mut data = "bench/build/data".to_string();
        let mut only = String::new();
        let mut h = Harness { quick: false, out: None, results: vec![], gaps: vec![], workloads: vec![], impls: vec![] };
        let args: Vec<String> = std::env::args().collect();
        let mut i = 1;
        while i < args.len() {
            match args[i].as_str() {
                "--quick" => h.quick = true,
                "--workloads" if i + 1 < args.len() => { i += 1; list = args[i].clone() }
                "--data" if i + 1 < args.len() => { i += 1; data = args[i].clone() }
                "--out" if i + 1 < args.len() => { i += 1; h.out = Some(args[i].clone()) }
                "--only" if i + 1 < args.len() => { i += 1; only = args[i].clone() }
                "--impls" if i + 1 < args.len() => {
                    i += 1;
                    h.impls = args[i].split(',').filter(|s| !s.is_empty()).map(String::from).collect()
                }
                a => {
                    eprintln!("bench-rust: unknown argument {a}");
                    std::process::exit(2);
                }
            }
            i += 1;
        }
        let want: Vec<&str> = only.split(',').filter(|s| !s.is_empty()).collect();
        let text = std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{list}: {e}"));
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let c: Vec<&str> = line.split('\t').collect();
            assert!(c.len() >= 5, "{list}: bad line {line:?}");
            if !want.is_empty() && !want.contains(&c[0]) {
                continue;
            }
            let read = |ext: &str| {
                let p = format!("{data}/{}{ext}", c[0]);
                std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
            };
            h.workloads.push(Workload {
                name: c[0].into(),
                schema: c[1].into(),
                ty: c[2].into(),
                kind: c[4].into(),
                json: read(".json"),
                sdpb: read(".sdpb"),
            });
        }
        h
    }

    /// Whether imp is timed (--impls): a peer that is not skips its setup
    /// and self-checks too (the paired runs time only SDP and the floor).
    pub fn wants(&self, imp: &str) -> bool {
        self.impls.is_empty() || self.impls.iter().any(|i| i == imp)
    }

    /// Times f and records median/min/max ns per call and allocations per call.
    pub fn run<F: FnMut()>(&mut self, imp: &str, workload: &str, op: &str, bytes: usize, mut f: F) {
        if !self.wants(imp) {
            return;
        }
        eprintln!("rust {imp:<12} {workload:<16} {op}");
        let mut samples = Vec::new();
        let iters: u64;
        let allocs: f64;
        if self.quick {
            // Once, cold: proves the benchmark runs; the time means little.
            iters = 1;
            let a0 = ALLOCS.load(Ordering::Relaxed);
            let t0 = cpu_ns();
            f();
            samples.push(cpu_ns() - t0);
            allocs = (ALLOCS.load(Ordering::Relaxed) - a0) as f64;
        } else {
            f(); // warm up
            let target = 5e6;
            let mut n: u64 = 1;
            let el = loop {
                let t0 = cpu_ns();
                for _ in 0..n {
                    f();
                }
                let el = cpu_ns() - t0;
                if el >= target / 8.0 || n >= 1 << 30 {
                    break el;
                }
                n *= 2;
            };
            iters = ((n as f64 * target / (el + 1.0)) as u64).max(1);
            // Slow operations (over ~50 ms) get 3 runs instead of 11.
            let runs = if el / n as f64 > 50e6 { 3 } else { 11 };
            for _ in 0..runs {
                let t0 = cpu_ns();
                for _ in 0..iters {
                    f();
                }
                samples.push((cpu_ns() - t0) / iters as f64);
            }
            let arun = iters.min(20);
            let a0 = ALLOCS.load(Ordering::Relaxed);
            for _ in 0..arun {
                f();
            }
            allocs = (ALLOCS.load(Ordering::Relaxed) - a0) as f64 / arun as f64;
        }
        samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
        self.results.push(format!(
            "{{\"impl\":{},\"workload\":{},\"op\":{},\"median_ns\":{:.3},\"min_ns\":{:.3},\"max_ns\":{:.3},\"runs\":{},\"iters\":{},\"bytes\":{},\"allocs\":{:.2}}}",
            json_str(imp), json_str(workload), json_str(op),
            samples[samples.len() / 2], samples[0], samples[samples.len() - 1],
            samples.len(), iters, bytes, allocs
        ));
    }

    pub fn gap(&mut self, imp: &str, workload: &str, reason: &str) {
        self.gaps.push(format!(
            "{{\"impl\":{},\"workload\":{},\"reason\":{}}}",
            json_str(imp), json_str(workload), json_str(reason)
        ));
    }

    pub fn finish(self, toolchain: &str) {
        let s = format!(
            "{{\"language\":\"rust\",\"toolchain\":{},\"quick\":{},\"results\":[\n{}\n],\"gaps\":[\n{}\n]}}\n",
            json_str(toolchain), self.quick, self.results.join(",\n"), self.gaps.join(",\n")
        );
        match &self.out {
            Some(p) => std::fs::write(p, s).unwrap_or_else(|e| panic!("{p}: {e}")),
            None => print!("{s}"),
        }
    }
}
