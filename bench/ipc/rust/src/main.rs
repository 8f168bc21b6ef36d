//! The Rust side of the IPC workload (bench/ipc):
//!
//!     ipc-rust write|read|read-reuse KIND N DATA
//!
//! The writer is the generated `MessageWriter` (docs/api.md "Streams") over a
//! 64 KiB `BufWriter` over stdout; the reader is the generated
//! `MessageReader` over a 64 KiB `BufReader`, decoding every message into a
//! fresh owned value (`read`: `read_message`) or into the previous message
//! (`read-reuse`: `read_message_into`).
use std::io::{BufReader, BufWriter, Read, Write};

const BUF: usize = 64 << 10;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
extern "C" {
    fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
}

/// CLOCK_MONOTONIC in nanoseconds (the same clock in every process).
fn mono_ns() -> i64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(1, &mut ts) };
    ts.sec * 1_000_000_000 + ts.nsec
}

fn die(msg: &str) -> ! {
    eprintln!("ipc-rust: {msg}");
    std::process::exit(1)
}

// The checksums of bench/ipc/go/src/sdpipc/peers.go (wrapping u64 sums).
fn str_sum(s: &str) -> u64 {
    s.bytes().fold(s.len() as u64, |a, b| a.wrapping_add(b as u64))
}
fn sum_struct_a(m: &leaderboard::StructA) -> u64 {
    str_sum(&m.name)
        .wrapping_add(m.birth_day as u64)
        .wrapping_add(str_sum(&m.phone))
        .wrapping_add(m.siblings as i64 as u64)
        .wrapping_add(m.money.to_bits())
        .wrapping_add(m.spouse as u64)
}
/// Every 64th sample and the last, as the Go reader's `sumI16`.
fn sum_i16(m: &arrays::I16Array) -> u64 {
    let v = &m.samples;
    let s = v.iter().step_by(64).fold(v.len() as u64, |a, &x| a.wrapping_add(x as i64 as u64));
    v.last().map_or(s, |&x| s.wrapping_add(x as i64 as u64))
}
fn sum_sensor(m: &ipc::SensorFrame) -> u64 {
    let f = |v: f32| v.to_bits() as u64;
    let d = |v: f64| v.to_bits();
    [
        m.seq, m.timestamp_ns as u64, m.received_ns as u64, m.device_id as u64, m.sensor_id as u64,
        m.status as u64, m.flags as u64, m.quality as u64, m.error_count as u64,
        f(m.accel_x), f(m.accel_y), f(m.accel_z), f(m.gyro_x), f(m.gyro_y), f(m.gyro_z),
        f(m.mag_x), f(m.mag_y), f(m.mag_z), f(m.temperature), f(m.humidity),
        d(m.pressure), d(m.altitude), d(m.latitude), d(m.longitude),
        f(m.speed), f(m.heading), f(m.battery_v), f(m.rssi), f(m.snr), str_sum(&m.label),
    ]
    .iter()
    .fold(0u64, |a, &v| a.wrapping_add(v))
}

fn start() {
    eprintln!("ipc-start {}", mono_ns());
}

fn end(count: u64, sum: u64, bytes: u64) {
    println!("ipc-end {} {} {} {}", mono_ns(), count, sum, bytes);
}

macro_rules! write_kind {
    ($krate:ident, $ty:ident, $bytes:expr, $n:expr) => {{
        let v = $krate::$ty::decode(&$bytes).unwrap_or_else(|e| die(&format!("decoding the .sdpb: {e}")));
        let stdout = std::io::stdout();
        let mut w = $krate::MessageWriter::new(BufWriter::with_capacity(BUF, stdout.lock()));
        start();
        for _ in 0..$n {
            w.write_message(&v).unwrap_or_else(|e| die(&format!("write: {e}")));
        }
        w.flush().unwrap_or_else(|e| die(&format!("write: {e}")));
    }};
}

macro_rules! read_kind {
    ($krate:ident, $variant:ident, $sum:expr) => {{
        let stdin = std::io::stdin();
        let mut r = $krate::MessageReader::new(BufReader::with_capacity(BUF, stdin.lock()));
        let (mut count, mut sum, mut bytes) = (0u64, 0u64, 0u64);
        loop {
            match r.read_message() {
                Ok(Some($krate::Message::$variant(m))) => {
                    sum = sum.wrapping_add($sum(&m));
                    bytes += (10 + m.encoded_size()) as u64;
                    count += 1;
                }
                Ok(Some(_)) => die(&format!("message {count} has another type")),
                Ok(None) => break,
                Err(e) => die(&format!("stream error: {e}")),
            }
        }
        end(count, sum, bytes);
    }};
}

macro_rules! read_kind_into {
    ($krate:ident, $variant:ident, $sum:expr) => {{
        let stdin = std::io::stdin();
        let mut r = $krate::MessageReader::new(BufReader::with_capacity(BUF, stdin.lock()));
        let mut msg = $krate::Message::$variant(Default::default());
        let (mut count, mut sum, mut bytes) = (0u64, 0u64, 0u64);
        loop {
            match r.read_message_into(&mut msg) {
                Ok(true) => match &msg {
                    $krate::Message::$variant(m) => {
                        sum = sum.wrapping_add($sum(m));
                        bytes += (10 + m.encoded_size()) as u64;
                        count += 1;
                    }
                    _ => die(&format!("message {count} has another type")),
                },
                Ok(false) => break,
                Err(e) => die(&format!("stream error: {e}")),
            }
        }
        end(count, sum, bytes);
    }};
}

#[allow(unreachable_patterns)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        die("usage: ipc-rust write|read|read-reuse KIND N DATA");
    }
    let (mode, kind) = (args[1].as_str(), args[2].as_str());
    let n: u64 = args[3].parse().unwrap_or_else(|_| die("bad N"));
    let path = format!("{}/{}.sdpb", args[4], kind);
    match mode {
        "write" => {
            let mut bytes = Vec::new();
            std::fs::File::open(&path)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .unwrap_or_else(|e| die(&format!("{path}: {e}")));
            match kind {
                "struct_a" => write_kind!(leaderboard, StructA, bytes, n),
                "sensor" => write_kind!(ipc, SensorFrame, bytes, n),
                "i16_48k" => write_kind!(arrays, I16Array, bytes, n),
                _ => die(&format!("unknown kind {kind}")),
            }
        }
        "read" => match kind {
            "struct_a" => read_kind!(leaderboard, StructA, sum_struct_a),
            "sensor" => read_kind!(ipc, SensorFrame, sum_sensor),
            "i16_48k" => read_kind!(arrays, I16Array, sum_i16),
            _ => die(&format!("unknown kind {kind}")),
        },
        "read-reuse" => match kind {
            "struct_a" => read_kind_into!(leaderboard, StructA, sum_struct_a),
            "sensor" => read_kind_into!(ipc, SensorFrame, sum_sensor),
            "i16_48k" => read_kind_into!(arrays, I16Array, sum_i16),
            _ => die(&format!("unknown kind {kind}")),
        },
        _ => die(&format!("unknown mode {mode}")),
    }
}
