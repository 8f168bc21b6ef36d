package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
)

const eventsJSONL = `{"type": "Point", "value": {"x": 1.5, "y": 2}}
{"type": "Ping", "value": {"seq": 7}}

{"type": "Pong", "value": {"seq": 8, "echo": "hi"}}
`

func TestStreamCommands(t *testing.T) {
	m := conformance.SchemaPath("messages")
	code, stream, errOut := sdp(t, []byte(eventsJSONL), "encode", "--schema", m, "--stream")
	if code != 0 || len(stream) != 26+14+20 {
		t.Fatalf("encode --stream: exit %d, %d bytes: %s", code, len(stream), errOut)
	}
	code, lines, errOut := sdp(t, []byte(stream), "decode", "--schema", m, "--stream")
	want := `{"index": 0, "offset": 0, "type": "Point", "value": {"x":1.5,"y":2}}
{"index": 1, "offset": 26, "type": "Ping", "value": {"seq":7}}
{"index": 2, "offset": 40, "type": "Pong", "value": {"seq":8,"echo":"hi"}}
`
	if code != 0 || lines != want {
		t.Fatalf("decode --stream: exit %d:\n%s%s", code, lines, errOut)
	}
	// decode --stream's output encodes back to the same stream.
	if code, again, _ := sdp(t, []byte(lines), "encode", "--schema", m, "--stream"); code != 0 || again != stream {
		t.Errorf("encode --stream of decode --stream's output: exit %d, differs", code)
	}
	// A stream cut inside the last payload: two messages, then the error
	// with the index and the stream offset.
	code, lines, errOut = sdp(t, []byte(stream[:len(stream)-1]), "decode", "--schema", m, "--stream")
	if code != 1 || strings.Count(lines, "\n") != 2 || !strings.Contains(errOut, "message 2 at stream offset 40: truncated at offset 10 in message:") {
		t.Errorf("a cut stream: exit %d:\n%s%s", code, lines, errOut)
	}
	// A bad payload in the middle: --keep-going reports it and goes on.
	bad := []byte(stream)
	bad[26+10] = 0 // Ping's seq stays valid; break Pong's string instead
	bad[len(bad)-1] = 0xff
	code, lines, errOut = sdp(t, bad, "decode", "--schema", m, "--stream", "--keep-going")
	if code != 1 || strings.Count(lines, "\n") != 2 || !strings.Contains(errOut, "message 2 at stream offset 40: utf8 at offset 14 in echo:") || !strings.Contains(errOut, "1 of 3 messages was rejected") {
		t.Errorf("--keep-going: exit %d:\n%s%s", code, lines, errOut)
	}
	// --annotate names every message.
	code, text, _ := sdp(t, []byte(stream), "decode", "--schema", m, "--stream", "--annotate")
	if code != 0 || strings.Count(text, "# message #") != 3 {
		t.Errorf("--stream --annotate: exit %d:\n%s", code, text)
	}
	// A message decoded as a plain value gets a hint.
	code, _, errOut = sdp(t, []byte(stream[:26]), "decode", "--schema", m, "--type", "Point")
	if code != 1 || !strings.Contains(errOut, "--message, or --stream") {
		t.Errorf("a message without --message: exit %d: %s", code, errOut)
	}
	// Bad JSON lines name their line.
	if code, _, errOut := sdp(t, []byte("{\"type\": \"Point\", \"value\": {\"x\": 1, \"y\": 2}}\n{\"type\": \"Nope\", \"value\": {}}\n"), "encode", "--schema", m, "--stream"); code != 1 || !strings.Contains(errOut, "line 2") {
		t.Errorf("a bad line: exit %d: %s", code, errOut)
	}
}

// TestStreamHello: encode --stream --hello starts the stream with a hello,
// decode --stream checks it (and refuses another version of the schema),
// --require-hello refuses a stream without one.
func TestStreamHello(t *testing.T) {
	m := conformance.SchemaPath("messages")
	code, plain, _ := sdp(t, []byte(eventsJSONL), "encode", "--schema", m, "--stream")
	code2, stream, errOut := sdp(t, []byte(eventsJSONL), "encode", "--schema", m, "--stream", "--hello")
	if code != 0 || code2 != 0 || !strings.HasSuffix(stream, plain) || !strings.HasPrefix(stream, "SDP2\x00\x00") {
		t.Fatalf("encode --stream --hello: exit %d: %s", code2, errOut)
	}
	code, lines, errOut := sdp(t, []byte(stream), "decode", "--schema", m, "--stream", "--require-hello")
	if code != 0 || !strings.HasPrefix(lines, `{"index": 0, "offset": 0, "hello": true}`+"\n") || strings.Count(lines, "\n") != 4 {
		t.Fatalf("decode --stream of a stream with a hello: exit %d:\n%s%s", code, lines, errOut)
	}
	if code, again, _ := sdp(t, []byte(lines), "encode", "--schema", m, "--stream"); code != 0 || again != stream {
		t.Errorf("encode --stream of decode --stream's output with a hello: exit %d, differs", code)
	}
	if code, _, errOut := sdp(t, []byte(plain), "decode", "--schema", m, "--stream", "--require-hello"); code != 1 || !strings.Contains(errOut, "message 0 at stream offset 0: schema at offset 4 in message:") {
		t.Errorf("--require-hello without a hello: exit %d: %s", code, errOut)
	}
	// Another version of Point (y: f32): the reader names the type.
	other := filepath.Join(t.TempDir(), "messages.sdp")
	src, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "y: f64", "y: f32", 1)
	if changed == string(src) {
		t.Fatal("messages.sdp has no `y: f64` to change")
	}
	if err := os.WriteFile(other, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = sdp(t, []byte(stream), "decode", "--schema", other, "--stream")
	if code != 1 || !strings.Contains(errOut, "schema at offset 16 in message: the writer's schema has another version of Point") {
		t.Errorf("a hello from another version of the schema: exit %d: %s", code, errOut)
	}
}
