package conformance

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"sdp/schema"
)

// TestReferenceStreams runs the corpus stream vectors through the reference
// testee, and checks that they cover every row of the stream table of
// docs/wire-format.md.
func TestReferenceStreams(t *testing.T) {
	RunStreams(t, "reference", func(t *testing.T, name string) Testee {
		s, err := schema.Load(SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		return ReferenceTestee(s)
	})
	RunStreamsAll(t, "reference", func(t *testing.T, name string) Testee {
		s, err := schema.Load(SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		return ReferenceTestee(s)
	})
	seen := map[string]bool{}
	names, _ := SchemaNames()
	for _, name := range names {
		vs, err := CorpusStreamVectors(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			kind := "valid"
			if v.Rule != "" {
				kind = strings.Fields(v.Rule)[0]
			}
			seen[v.ID[strings.LastIndexByte(v.ID, '.')+1:]+":"+kind] = true
		}
	}
	for _, want := range []string{"empty:valid", "all:valid", "at_max:valid", "cut_header:truncated", "cut_payload:truncated", "bad_magic:message", "unknown_id:message", "over_max:message", "bad0:message", "bad1:truncated"} {
		if !seen[want] {
			t.Errorf("no stream vector %s", want)
		}
	}
}

// TestReferenceStreamAll checks the replies of the reference to OpStreamAll
// on a few streams of messages.sdp: skipped messages, the repeat of an error
// that ends the stream, and the vectors' coverage of both kinds.
func TestReferenceStreamAll(t *testing.T) {
	s, err := schema.Load(SchemaPath("messages"))
	if err != nil {
		t.Fatal(err)
	}
	point := Message(1, make([]byte, 16))
	ping := Message(100, []byte{7, 0, 0, 0})
	bad := Message(100, []byte{7, 0, 0})
	unknown := Message(99, []byte{7, 0, 0, 0})
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	for _, c := range []struct {
		what   string
		max    uint32
		stream []byte
		lines  string
		wrote  []byte
	}{
		{"skipped", 0, cat(point, bad, unknown, ping), "truncated 1 36 1\nmessage 2 43 1\n", cat(point, ping)},
		{"ended", 0, cat(point, []byte("SDP3"), ping[4:], ping), "message 1 26 0\nmessage 1 26 0\n", point},
		{"cut", 0, cat(point, ping[:12]), "truncated 1 36 0\ntruncated 1 36 0\n", point},
		{"over the maximum", 10, cat(ping, point, ping), "message 1 20 0\nmessage 1 20 0\n", ping},
		{"unknown over the maximum", 3, cat(unknown, ping), "message 0 4 0\nmessage 0 4 0\n", nil},
	} {
		got := ReferenceStreamAll(s, c.max, c.stream)
		want := cat(binary.LittleEndian.AppendUint32(nil, uint32(len(c.lines))), []byte(c.lines), c.wrote)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %s", c.what, streamAllDiff(want, got))
		}
	}
	seen := map[string]bool{}
	names, _ := SchemaNames()
	for _, name := range names {
		vs, err := CorpusStreamAllVectors(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			n := binary.LittleEndian.Uint32(v.Want)
			for _, line := range strings.Split(strings.TrimSuffix(string(v.Want[4:4+n]), "\n"), "\n") {
				if f := strings.Fields(line); len(f) == 4 {
					seen[f[0]+" skippable "+f[3]] = true
				}
			}
		}
	}
	for _, want := range []string{"message skippable 1", "message skippable 0", "truncated skippable 0", "truncated skippable 1", "schema skippable 0"} {
		if !seen[want] {
			t.Errorf("no stream_all vector has an error %q", want)
		}
	}
}
