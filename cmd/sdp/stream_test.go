package main

import (
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
	if code != 1 || strings.Count(lines, "\n") != 2 || !strings.Contains(errOut, "message #2 (stream offset 40): offset 50") || !strings.Contains(errOut, "rule truncated") {
		t.Errorf("a cut stream: exit %d:\n%s%s", code, lines, errOut)
	}
	// A bad payload in the middle: --keep-going reports it and goes on.
	bad := []byte(stream)
	bad[26+10] = 0 // Ping's seq stays valid; break Pong's string instead
	bad[len(bad)-1] = 0xff
	code, lines, errOut = sdp(t, bad, "decode", "--schema", m, "--stream", "--keep-going")
	if code != 1 || strings.Count(lines, "\n") != 2 || !strings.Contains(errOut, "message #2") || !strings.Contains(errOut, "rule utf8") || !strings.Contains(errOut, "1 of 3 messages were rejected") {
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
