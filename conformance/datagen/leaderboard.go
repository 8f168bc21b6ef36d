package datagen

import "strconv"

// The workloads with the shapes of public serialization benchmarks
// (leaderboard.sdp): go_serialization_benchmarks' struct A, and
// rust_serialization_benchmark's mesh and log data sets, with the sizes and
// value distributions those suites describe, drawn from this package's
// generator so every language measures the same bytes.

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

func randomText(r *Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// StructA is a leaderboard.sdp StructA: a 16-letter name, a birthday in
// Unix nanoseconds (1970-2030), a 10-digit phone number, 0-4 siblings, a
// spouse flag and an amount of money in [0, 1) with 53-bit resolution.
func StructA(seed uint64) Object {
	r := stream(seed, "struct_a")
	return Obj(
		"name", randomText(r, letters, 16),
		"birth_day", int64(r.Uint64()%(60*365*24*3600))*1_000_000_000+int64(r.Intn(1_000_000_000)),
		"phone", randomText(r, "0123456789", 10),
		"siblings", int32(r.Intn(5)),
		"spouse", r.Chance(50),
		"money", F64(r.Unit()),
	)
}

// Mesh is a leaderboard.sdp Mesh of n triangles (the public suite uses
// 125,000: 6 MB), every coordinate in [-1024, 1024) on a 1/8192 grid, so
// each is an exact f32.
func Mesh(seed uint64, n int) Object {
	r := stream(seed, "mesh")
	vec := func() Object {
		c := func() F32 { return F32(float32(int32(r.Uint32())>>8) / 8192) }
		x, y, z := c(), c(), c()
		return Obj("x", x, "y", y, "z", z)
	}
	tris := make([]interface{}, n)
	for i := range tris {
		v0, v1, v2, normal := vec(), vec(), vec(), vec()
		tris[i] = Obj("v0", v0, "v1", v1, "v2", v2, "normal", normal)
	}
	return Obj("triangles", tris)
}

var (
	logUsers   = []string{"-", "alice", "bob", "carmen", "david", "eric", "frank", "george", "harry"}
	logMonths  = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	logMethods = []string{"GET", "POST", "PUT", "UPDATE", "DELETE"}
	logRoutes  = []string{"/favicon.ico", "/css/index.css", "/css/font-awsome.min.css", "/img/logo-full.svg",
		"/img/splash.jpg", "/api/login", "/api/logout"}
	logProtocols = []string{"HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3"}
	logCodes     = []uint16{100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302,
		303, 304, 305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413,
		414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504,
		505, 506, 507, 508, 510, 511}
)

// Logs is a leaderboard.sdp Logs of n web-server log entries (the public
// suite uses 10,000): a random IPv4 address, identity "-", a user id from a
// short list, a Common Log Format date (1970-2021, any time zone from -1200
// to +1200), a request line of method, route and protocol, an HTTP status
// code and a size below 100,000,000.
func Logs(seed uint64, n int) Object {
	r := stream(seed, "log")
	pad := func(v int) string {
		if v < 10 {
			return "0" + strconv.Itoa(v)
		}
		return strconv.Itoa(v)
	}
	logs := make([]interface{}, n)
	for i := range logs {
		addr := Obj("x0", uint8(r.Intn(256)), "x1", uint8(r.Intn(256)), "x2", uint8(r.Intn(256)), "x3", uint8(r.Intn(256)))
		user := r.Pick(logUsers)
		zone := r.Range(-12, 12)
		sign := "+"
		if zone < 0 {
			sign, zone = "-", -zone
		}
		date := strconv.Itoa(r.Range(1, 28)) + "/" + r.Pick(logMonths) + "/" + strconv.Itoa(r.Range(1970, 2021)) +
			":" + pad(r.Intn(24)) + ":" + pad(r.Intn(60)) + ":" + pad(r.Intn(60)) + " " + sign + pad(zone) + "00"
		request := r.Pick(logMethods) + " " + r.Pick(logRoutes) + " " + r.Pick(logProtocols)
		code := logCodes[r.Intn(len(logCodes))]
		size := uint64(r.Intn(100_000_000))
		logs[i] = Obj("address", addr, "identity", "-", "userid", user, "date", date,
			"request", request, "code", code, "size", size)
	}
	return Obj("logs", logs)
}

func leaderboardInvalid() []Vector {
	structA := func(name wire, spouse uint8) wire {
		return wire{}.cat(name).i64(1_000_000_000).str("5551234567").i32(2).u8(spouse).f64(0.5)
	}
	vec := wire{}.f32(1).f32(2).f32(3)
	tri := wire{}.cat(vec).cat(vec).cat(vec).cat(vec)
	log := func(request wire) wire {
		return wire{}.u8(10).u8(0).u8(0).u8(1).str("-").str("alice").str("10/Oct/2000:13:55:36 -0700").
			cat(request).u16(200).u64(2326)
	}
	good := log(wire{}.str("GET /api/login HTTP/1.1"))
	return []Vector{
		v("bool_spouse", "StructA", "bool", structA(wire{}.str("abcdefghijklmnop"), 2), "spouse is 02"),
		v("utf8_name", "StructA", "utf8", structA(wire{}.rawStr("41 42 c3"), 1), "a name ending in half of a 2-byte sequence"),
		v("truncated_struct_a", "StructA", "truncated", structA(wire{}.str("abcdefghijklmnop"), 0).cut(3), "money (f64) is cut to 5 bytes"),
		v("trailing_after_struct_a", "StructA", "trailing", structA(wire{}.str("a"), 1).u8(0), "one byte after a complete StructA"),
		v("count_triangles", "Mesh", "count", wire{}.u32(1000).cat(tri), "1000 triangles need 48,000 bytes; 48 remain"),
		v("count_triangles_overflow_32bit", "Mesh", "count", wire{}.u32(0x55555556).cat(vec).cat(vec).hex("00 00 00 00 00 00 00 00"),
			"count 0x55555556 × 48 bytes wraps to 32 in 32-bit arithmetic; 32 bytes remain"),
		v("count_truncated_triangle", "Mesh", "count", wire{}.u32(2).cat(tri).cat(tri).cut(2),
			"two triangles need 96 bytes, 94 remain: the count rule rejects an array of fixed-size elements before any is read"),
		v("truncated_count", "Mesh", "truncated", wire{}.hex("02 00"), "the triangles count (u32) is cut to 2 bytes"),
		v("utf8_request", "Logs", "utf8", wire{}.u32(2).cat(good).cat(log(wire{}.rawStr("47 45 54 20 ed a0 80"))),
			"the second request holds a UTF-16 surrogate encoded as UTF-8"),
		v("count_logs", "Logs", "count", wire{}.u32(1000).cat(good), "1000 logs need at least 30,000 bytes; one log follows"),
		v("truncated_log_size", "Logs", "truncated", wire{}.u32(1).cat(good).cut(4), "size (u64) is cut to 4 bytes"),
		msg("message_wrong_length", "Mesh", "message", message(4, wire{}.u32(1).cat(tri)).cut(1),
			"the Mesh message says its payload is one byte longer than what follows"),
	}
}
