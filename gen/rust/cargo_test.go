package rust

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/gentest"
	"sdp/schema"
)

// The Rust tests share one Cargo workspace below os.TempDir(): the crates
// generated for the nine corpus schemas and one testee program that depends
// on all of them. Files are rewritten only when their content changes and
// the target directory persists, so repeated runs build incrementally.

var (
	buildOnce sync.Once
	built     *workspace
	buildErr  error
)

type workspace struct {
	dir    string // workspace root
	target string // CARGO_TARGET_DIR
	testee string // the built testee binary
	crates []string
	// schemas are the corpus schemas the testee serves, in the order its
	// libFuzzer entry numbers them.
	schemas []*schema.Schema
}

// cargoEnv is the environment cargo runs with.
func (w *workspace) cargoEnv() []string {
	return append(os.Environ(), "CARGO_TARGET_DIR="+w.target, "CARGO_TERM_COLOR=never")
}

// cargo runs a cargo subcommand in the workspace.
func (w *workspace) cargo(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("cargo", args...)
	cmd.Dir = w.dir
	cmd.Env = w.cargoEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// buildWorkspace generates the crates and the testee and builds them once
// per test binary.
func buildWorkspace(t *testing.T) *workspace {
	t.Helper()
	gentest.RequireTool(t, "cargo")
	buildOnce.Do(func() {
		built, buildErr = setupWorkspace("sdp-rust-test", extraSchemas(t), nil)
		if buildErr != nil {
			return
		}
		cmd := exec.Command("cargo", "build", "--quiet", "-p", "sdp_rust_testee")
		cmd.Dir = built.dir
		cmd.Env = built.cargoEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("cargo build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// gentestRoot is the repository root.
func gentestRoot() string {
	return filepath.Clean(filepath.Join(conformance.Dir(), ".."))
}

// setupWorkspace writes the workspace below os.TempDir()/dir: the crates of
// the corpus schemas, of the schemas at the paths extra and of the
// random-schema suites, and a testee that serves the corpus schemas and the
// suites (in that order: the order of gentest.FuzzCorpusWith).
func setupWorkspace(dir string, extra []string, suites []*randschema.Suite) (*workspace, error) {
	root := filepath.Join(os.TempDir(), dir)
	w := &workspace{
		dir:    filepath.Join(root, "ws"),
		target: filepath.Join(root, "target"),
	}
	w.testee = filepath.Join(w.target, "debug", "sdp_rust_testee")
	names, err := conformance.SchemaNames()
	if err != nil {
		return nil, err
	}
	var schemas []*schema.Schema
	w.crates = append(w.crates, names...)
	for _, name := range names {
		s, err := schema.Load(conformance.SchemaPath(name))
		if err != nil {
			return nil, err
		}
		schemas = append(schemas, s)
		files, err := Generate(s, gen.Options{})
		if err != nil {
			return nil, err
		}
		if err := syncFiles(filepath.Join(w.dir, "crates", name), files); err != nil {
			return nil, err
		}
	}
	for _, path := range extra {
		s, err := schema.Load(path)
		if err != nil {
			return nil, err
		}
		files, err := Generate(s, gen.Options{})
		if err != nil {
			return nil, err
		}
		if err := syncFiles(filepath.Join(w.dir, "crates", s.Name), files); err != nil {
			return nil, err
		}
		names = append(names, s.Name)
		w.crates = append(w.crates, s.Name)
	}
	for _, su := range suites {
		files, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", su.Name, err)
		}
		if err := syncFiles(filepath.Join(w.dir, "crates", su.Name), files); err != nil {
			return nil, err
		}
		names = append(names, su.Name)
		w.crates = append(w.crates, su.Name)
		schemas = append(schemas, su.Schema)
	}
	var deps []string
	for _, n := range names {
		deps = append(deps, fmt.Sprintf("%s = { path = \"../crates/%s\" }", crateName(n), n))
	}
	files := []gen.File{
		{Path: "Cargo.toml", Content: []byte("[workspace]\nresolver = \"2\"\nmembers = [\"crates/*\", \"testee\"]\n")},
		{Path: "testee/Cargo.toml", Content: []byte("[package]\nname = \"sdp_rust_testee\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n" +
			"[lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = [\"cfg(sdp_fuzz)\"] }\n\n[dependencies]\n" + strings.Join(deps, "\n") + "\n")},
		{Path: "testee/src/main.rs", Content: testeeMain(schemas)},
		{Path: "testee/src/edge_tests.rs", Content: []byte(edgeTests)},
		{Path: "testee/src/top_tests.rs", Content: topTests()},
	}
	if err := syncFiles(w.dir, files); err != nil {
		return nil, err
	}
	w.schemas = schemas
	return w, nil
}

// syncFiles writes files below dir, leaving files whose content is unchanged
// untouched (so cargo's fingerprints stay valid) and removing stale ones
// under src/.
func syncFiles(dir string, files []gen.File) error {
	want := map[string]bool{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		want[p] = true
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, f.Content) {
			continue
		}
		if err := gen.Write(dir, []gen.File{f}); err != nil {
			return err
		}
	}
	src := filepath.Join(dir, "src")
	entries, _ := os.ReadDir(src)
	for _, e := range entries {
		p := filepath.Join(src, e.Name())
		if !e.IsDir() && !want[p] && strings.HasSuffix(p, ".rs") {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// testeeMain writes the testee: the conformance protocol on stdin/stdout,
// with every input decoded through the owned API, the view API, the prefix
// API and (for messages) the dispatcher, the view dispatcher, the per-type
// message decoder and the stream reader. Any disagreement is status 2.
func testeeMain(schemas []*schema.Schema) []byte {
	p := emit.New("    ")
	p.P("//! The Rust conformance testee (generated by gen/rust's tests). Built")
	p.P("//! with `--cfg sdp_fuzz`, it is a libFuzzer target instead.")
	p.P()
	p.P("#![cfg_attr(sdp_fuzz, no_main)]")
	p.P()
	p.P("#[cfg(test)]")
	p.P("mod edge_tests;")
	p.P("#[cfg(test)]")
	p.P("mod top_tests;")
	p.P()
	p.Line(testeeRuntime)
	for _, s := range schemas {
		g := newGenerator(s, crateName(s.Name))
		p.P()
		p.Block("mod "+s.Name+"_testee {", "}", func() {
			p.P("use ", g.crate, " as s;")
			p.P()
			if len(s.Structs) > 0 {
				// The value each type's OpRoundtrip requests decode into:
				// what the previous request of that type left (issue #17).
				p.Block("thread_local! {", "}", func() {
					for _, st := range s.Structs {
						p.F("static KEPT_%d: std::cell::RefCell<s::%s> = std::cell::RefCell::new(Default::default());", st.ID, g.name[st])
					}
				})
				p.P()
				// stream_all! writes the struct a Message holds, not the
				// Message, after read_message (rt::EncodeMessage of both).
				p.Block("fn write_struct<W: std::io::Write>(w: &mut s::MessageWriter<W>, m: &s::Message) -> Result<(), s::StreamError> {", "}", func() {
					p.Block("match m {", "}", func() {
						for _, st := range s.Structs {
							p.F("s::Message::%s(v) => w.write_message(v),", g.name[st])
						}
					})
				})
				p.P()
			}
			p.Block("pub fn handle(op: u8, type_id: u16, input: &[u8]) -> crate::Reply {", "}", func() {
				p.Block("match (op, type_id) {", "}", func() {
					for _, st := range s.Structs {
						p.F("(1, %d) => crate::roundtrip!(input, s::%s, s::%s, KEPT_%d),", st.ID, g.name[st], g.view[st], st.ID)
					}
					p.P("(2, _) => crate::message!(input, type_id, s, [")
					p.In()
					for _, st := range s.Structs {
						p.F("s::%s,", g.name[st])
					}
					p.Out()
					p.P("]),")
					p.P("(3, _) => crate::stream!(input, s),")
					p.P("(4, _) => crate::stream_all!(input, s),")
					p.P("_ => crate::broken(format!(\"unknown op {op} or type id {type_id}\")),")
				})
			})
			// The default value of every type encodes to bytes that
			// decode back to it (issue #13).
			p.P()
			p.P("#[cfg(test)]")
			p.P("#[test]")
			p.Block("fn defaults_roundtrip() {", "}", func() {
				for _, d := range s.Decls {
					p.F("crate::default_roundtrips!(s::%s);", g.name[d])
				}
			})
		})
	}
	p.P()
	p.P("#[cfg(not(sdp_fuzz))]")
	p.Block("fn handler(schema: &str) -> Option<fn(u8, u16, &[u8]) -> Reply> {", "}", func() {
		p.Block("match schema {", "}", func() {
			for _, s := range schemas {
				p.F("%q => Some(%s_testee::handle),", s.Name, s.Name)
			}
			p.P("_ => None,")
		})
	})
	p.P()
	fuzzEntry(p, schemas)
	return p.Bytes()
}

// testeeRuntime is the schema-independent part of the testee.
const testeeRuntime = `#[cfg(not(sdp_fuzz))]
use std::io::{self, Read, Write};

pub type Reply = (u8, Vec<u8>);

pub fn broken(why: String) -> Reply {
    (2, why.into_bytes())
}

/// Decodes one struct through every decode API and checks they agree.
#[macro_export]
macro_rules! roundtrip {
    ($input:expr, $T:ty, $V:ty, $kept:ident) => {{
        let input: &[u8] = $input;
        let owned = <$T>::decode(input);
        // decode_into, into the value the previous request of this type
        // left, must agree with decode: the same value or the same error,
        // and after an error the default value.
        let reused = $kept.with(|kept| {
            let mut kept = kept.borrow_mut();
            let got = kept.decode_into(input);
            let bytes = kept.encode_to_vec();
            match (&owned, got) {
                (Ok(o), Ok(())) => {
                    let a = o.encode_to_vec();
                    (a != bytes).then(|| format!("decode_into re-encodes as {bytes:02x?}, decode as {a:02x?}"))
                }
                (Err(e), Err(g)) if *e != g => {
                    Some(format!("decode rejected ({e}), decode_into otherwise ({g})"))
                }
                (Err(_), Err(_)) => (bytes != <$T>::default().encode_to_vec())
                    .then(|| format!("a failed decode_into left {bytes:02x?}, not the default value")),
                (Ok(_), Err(g)) => Some(format!("decode accepted, decode_into rejected ({g})")),
                (Err(e), Ok(())) => Some(format!("decode rejected ({e}), decode_into accepted")),
            }
        });
        if let Some(why) = reused {
            return $crate::broken(why);
        }
        let view = <$V>::decode(input);
        let with = <$T>::decode_with(input, Default::default());
        let mut extended = input.to_vec();
        extended.push(0x5a);
        let prefix = <$T>::decode_prefix(&extended);
        let view_prefix = <$V>::decode_prefix(&extended);
        let trailing = <$T>::decode(&extended);
        match (owned, view) {
            (Ok(o), Ok(v)) => {
                let a = o.encode_to_vec();
                let b = <$T>::from(v.clone()).encode_to_vec();
                let c = v.to_owned_value().encode_to_vec();
                let mut appended = vec![0xa5];
                o.encode(&mut appended);
                let mut written = Vec::new();
                o.write_to(&mut written).unwrap();
                if a != b || a != c {
                    $crate::broken(format!("view re-encodes as {:02x?}, owned as {:02x?}", b, a))
                } else if o.encoded_size() != a.len() {
                    $crate::broken(format!("encoded_size {} but {} bytes", o.encoded_size(), a.len()))
                } else if appended[0] != 0xa5 || appended[1..] != a[..] || written != a {
                    $crate::broken("encode or write_to disagrees with encode_to_vec".into())
                } else if !matches!(&with, Ok(w) if w.encode_to_vec() == a) {
                    $crate::broken("decode_with(default limits) disagrees with decode".into())
                } else if !matches!(&prefix, Ok((p, n)) if *n == input.len() && p.encode_to_vec() == a) {
                    $crate::broken(format!("decode_prefix disagrees: {:?}", prefix.map(|p| p.1)))
                } else if !matches!(&view_prefix, Ok((_, n)) if *n == input.len()) {
                    $crate::broken("view decode_prefix disagrees".into())
                } else if trailing.is_ok() {
                    $crate::broken("decode accepted a trailing byte".into())
                } else {
                    (0, a)
                }
            }
            (Err(e), Err(v)) if with.is_err() => {
                if e.rule() != v.rule() || e.offset() != v.offset() || e.path() != v.path() {
                    $crate::broken(format!("owned decode rejected ({e} at {:?}), view rejected for another rule, offset or path ({v} at {:?})", e.path(), v.path()))
                } else {
                    // The error's own text, in the layout of docs/api.md.
                    (1, e.to_string().into_bytes())
                }
            }
            (Ok(_), Err(e)) => $crate::broken(format!("owned decode accepted, view rejected: {e}")),
            (Err(e), _) => $crate::broken(format!("owned decode rejected ({e}), another API accepted")),
        }
    }};
}

/// Checks that the default value of a type encodes and decodes back to it.
#[cfg(test)]
#[macro_export]
macro_rules! default_roundtrips {
    ($T:ty) => {{
        let v = <$T>::default();
        let bytes = v.encode_to_vec();
        assert_eq!(bytes.len(), v.encoded_size(), "{}", stringify!($T));
        assert_eq!(<$T>::decode(&bytes).unwrap(), v, "{}", stringify!($T));
    }};
}

/// Decodes one message through every message API and checks they agree.
#[macro_export]
macro_rules! message {
    ($input:expr, $type_id:expr, $s:ident, [$($T:ty,)*]) => {{
        let input: &[u8] = $input;
        let owned = $s::decode_message(input);
        let view = $s::MessageRef::decode(input);
        let mut stream = $s::MessageReader::new(input).with_max_size(input.len());
        let streamed = stream.read_message();
        let after = stream.read_message();
        // The per-type decoder must agree whenever the header names its type.
        let mut specific: Option<Result<Vec<u8>, String>> = None;
        $(
            if input.len() >= 6 && u16::from_le_bytes([input[4], input[5]]) == <$T>::TYPE_ID {
                specific = Some(
                    <$T>::decode_message(input)
                        .map(|v| v.encode_message())
                        .map_err(|e| e.to_string()),
                );
            }
        )*
        let _ = $type_id;
        match (owned, view) {
            (Ok(m), Ok(v)) => {
                let a = m.encode_to_vec();
                let b = v.to_owned_value().encode_to_vec();
                let stream_ok = matches!(&streamed, Ok(Some(sm)) if sm.encode_to_vec() == a)
                    && matches!(after, Ok(None));
                if a != b {
                    $crate::broken("view message re-encodes differently".into())
                } else if m.encoded_size() != a.len() || m.message_type_id() != v.message_type_id() {
                    $crate::broken("message size or type id disagrees".into())
                } else if !stream_ok {
                    $crate::broken(format!("stream reader disagrees: {:?}", streamed.map(|_| ())))
                } else if !matches!(&specific, Some(Ok(s)) if *s == a) {
                    $crate::broken("per-type decode_message disagrees".into())
                } else {
                    (0, a)
                }
            }
            (Err(e), Err(v)) => {
                if matches!(specific, Some(Ok(_))) {
                    $crate::broken("per-type decode_message accepted a rejected message".into())
                } else if e.rule() != v.rule() || e.offset() != v.offset() || e.path() != v.path() {
                    $crate::broken(format!("owned rejected ({e} at {:?}), view rejected for another rule, offset or path ({v} at {:?})", e.path(), v.path()))
                } else {
                    (1, e.to_string().into_bytes())
                }
            }
            (Ok(_), Err(e)) => $crate::broken(format!("owned accepted, view rejected: {e}")),
            (Err(e), Ok(_)) => $crate::broken(format!("owned rejected ({e}), view accepted")),
        }
    }};
}

/// Reads a stream (after the u32 maximum payload length, 0 for none) with
/// MessageReader and writes every message back with a MessageWriter of the
/// same maximum, after the schema's own hello (write_hello) when the stream
/// began with one. A rejection is "<rule> <index> <stream offset>: <error>".
#[macro_export]
macro_rules! stream {
    ($input:expr, $s:ident) => {{
        let input: &[u8] = $input;
        match input {
            [a, b, c, d, stream @ ..] => {
                let max = match u32::from_le_bytes([*a, *b, *c, *d]) {
                    0 => usize::MAX,
                    n => usize::try_from(n).unwrap_or(usize::MAX),
                };
                let mut reader = $s::MessageReader::new(stream).with_max_size(max);
                let mut out = $s::MessageWriter::new(Vec::new()).with_max_size(max);
                // The first message is read with read_message, the others
                // into it with read_message_into.
                let mut kept: Option<$s::Message> = None;
                let mut greeted = false;
                loop {
                    let next = match kept.as_mut() {
                        Some(m) => reader.read_message_into(m).map(|more| more.then_some(())),
                        None => reader.read_message().map(|m| m.map(|m| kept = Some(m))),
                    };
                    if next.is_ok() && reader.schema_checked() && !greeted {
                        greeted = true;
                        if let Err(e) = out.write_hello() {
                            break $crate::broken(format!("write_hello: {e}"));
                        }
                    }
                    match next {
                        Ok(Some(())) => {
                            let Some(m) = kept.as_ref() else {
                                break $crate::broken("no message was kept".into());
                            };
                            if let Err(e) = out.write_message(m) {
                                break $crate::broken(format!("write_message: {e}"));
                            }
                        }
                        Ok(None) => break (0, out.into_inner()),
                        Err($s::rt::StreamError::Decode(e)) => match e.message_index() {
                            // The error's own text: "message <index> at stream
                            // offset <start>: <rule> at offset <offset> ...".
                            Some(_) => break (1, e.to_string().into_bytes()),
                            None => break $crate::broken(format!("a stream error without a message index: {e}")),
                        },
                        Err(e) => break $crate::broken(format!("stream: {e}")),
                    }
                }
            }
            _ => $crate::broken("a stream request needs the u32 maximum payload length".into()),
        }
    }};
}

/// Answers OpStreamAll (conformance/testee.go): the stream read to its end
/// with read_message, going on after every skippable error and reading once
/// more after one that ends the stream; the error lines, then every message
/// written back with a MessageWriter (the struct itself after read_message,
/// the Message after read_message_into). read_message_into (every message
/// into the previous one) must give the same reply, and the Iterator must
/// yield the same errors, a stream-ending one once, then end.
#[macro_export]
macro_rules! stream_all {
    ($input:expr, $s:ident) => {{
        let input: &[u8] = $input;
        match input {
            [a, b, c, d, stream @ ..] => {
                let max = match u32::from_le_bytes([*a, *b, *c, *d]) {
                    0 => usize::MAX,
                    n => usize::try_from(n).unwrap_or(usize::MAX),
                };
                let line = |e: &$s::rt::StreamError| -> Result<String, String> {
                    match e {
                        $s::rt::StreamError::Decode(d) => match d.message_index() {
                            Some(i) => Ok(format!("{} {} {} {}\n", d.rule(), i, d.offset(), u8::from(e.is_skippable()))),
                            None => Err(format!("a stream error without a message index: {d}")),
                        },
                        other => Err(format!("stream: {other}")),
                    }
                };
                let read = |into: bool, reader: &mut $s::MessageReader<&[u8]>, kept: &mut Option<$s::Message>| -> Result<bool, $s::rt::StreamError> {
                    match kept.as_mut() {
                        Some(m) if into => reader.read_message_into(m),
                        _ => reader.read_message().map(|m| match m {
                            Some(m) => {
                                *kept = Some(m);
                                true
                            }
                            None => false,
                        }),
                    }
                };
                // The reply, and the errors as the iterator must yield them.
                let read_all = |into: bool| -> Result<(Vec<u8>, String), String> {
                    let mut reader = $s::MessageReader::new(stream).with_max_size(max);
                    let mut out = $s::MessageWriter::new(Vec::new()).with_max_size(max);
                    let (mut lines, mut yielded) = (String::new(), String::new());
                    let mut kept: Option<$s::Message> = None;
                    let mut greeted = false;
                    loop {
                        let next = read(into, &mut reader, &mut kept);
                        if reader.schema_checked() && !greeted {
                            greeted = true;
                            out.write_hello().map_err(|e| format!("write_hello: {e}"))?;
                        }
                        match next {
                            Ok(true) => {
                                let m = kept.as_ref().ok_or("no message was kept")?;
                                let written = if into { out.write_message(m) } else { write_struct(&mut out, m) };
                                written.map_err(|e| format!("write_message: {e}"))?
                            }
                            Ok(false) => break,
                            Err(e) => {
                                let l = line(&e)?;
                                lines += &l;
                                yielded += &l;
                                if e.is_skippable() {
                                    continue;
                                }
                                // The stream ends: a second read must repeat the error.
                                match read(into, &mut reader, &mut kept) {
                                    Ok(true) => lines += "message\n",
                                    Ok(false) => lines += "end\n",
                                    Err(e) => lines += &line(&e)?,
                                }
                                break;
                            }
                        }
                    }
                    let mut reply = (lines.len() as u32).to_le_bytes().to_vec();
                    reply.extend_from_slice(lines.as_bytes());
                    reply.extend_from_slice(&out.into_inner());
                    Ok((reply, yielded))
                };
                let iterated = || -> Result<String, String> {
                    let mut lines = String::new();
                    for item in $s::MessageReader::new(stream).with_max_size(max) {
                        if let Err(e) = item {
                            lines += &line(&e)?;
                        }
                    }
                    Ok(lines)
                };
                match (read_all(false), read_all(true), iterated()) {
                    (Ok((owned, yielded)), Ok((into, _)), Ok(iter)) => {
                        if owned != into {
                            $crate::broken(format!("read_message_into gives {:?}, read_message {:?}", String::from_utf8_lossy(&into), String::from_utf8_lossy(&owned)))
                        } else if iter != yielded {
                            $crate::broken(format!("the iterator yields the errors {iter:?}, read_message {yielded:?}"))
                        } else {
                            (0, owned)
                        }
                    }
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => $crate::broken(e),
                }
            }
            _ => $crate::broken("a stream request needs the u32 maximum payload length".into()),
        }
    }};
}

// The protocol runs on a thread with a stack of the second argument's size
// in bytes (default 8 MiB): decoding takes a bounded stack per nesting level
// (fixed arrays above 1 KiB of nominal size are boxed), and TestHostile
// serves a chain of 32 KiB values on gentest.HostileStack (512 KiB).
#[cfg(not(sdp_fuzz))]
fn main() {
    let stack = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(8 << 20);
    let serve = std::thread::Builder::new().stack_size(stack).spawn(serve);
    if serve.expect("spawn").join().is_err() {
        std::process::exit(2);
    }
}

#[cfg(not(sdp_fuzz))]
fn serve() {
    let schema = std::env::args().nth(1).unwrap_or_default();
    let Some(handle) = handler(&schema) else {
        eprintln!("usage: sdp_rust_testee SCHEMA [STACK] (unknown schema {schema:?})");
        std::process::exit(2);
    };
    let mut input = io::BufReader::new(io::stdin().lock());
    let mut output = io::BufWriter::new(io::stdout().lock());
    loop {
        let mut header = [0u8; 4];
        match input.read_exact(&mut header) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => panic!("read: {e}"),
        }
        let mut request = vec![0u8; u32::from_le_bytes(header) as usize];
        input.read_exact(&mut request).expect("read request");
        let (status, out) = match request.as_slice() {
            [op, a, b, rest @ ..] => {
                let (op, id) = (*op, u16::from_le_bytes([*a, *b]));
                match std::panic::catch_unwind(|| handle(op, id, rest)) {
                    Ok(reply) => reply,
                    Err(_) => broken("the decoder panicked".into()),
                }
            }
            _ => broken("request too short".into()),
        };
        output.write_all(&(out.len() as u32 + 1).to_le_bytes()).unwrap();
        output.write_all(&[status]).unwrap();
        output.write_all(&out).unwrap();
        output.flush().unwrap();
    }
}`

// TestConformance runs the whole corpus against the Rust testee.
func TestConformance(t *testing.T) {
	w := buildWorkspace(t)
	start := func(t *testing.T, name string) conformance.Testee {
		te, err := conformance.Start(exec.Command(w.testee, name))
		if err != nil {
			t.Fatal(err)
		}
		return te
	}
	conformance.Run(t, "rust", start)
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "rust", start) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "rust", start) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "rust", start) })
}
