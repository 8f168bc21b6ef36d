package codec_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"sdp/codec"
	"sdp/conformance"
)

// TestStreamRules checks the reference stream reader against the table of
// docs/wire-format.md, "Streams".
func TestStreamRules(t *testing.T) {
	s := load(t, "messages")
	point, _ := hex.DecodeString("534450320100100000001f85eb51b81e0940ae47e17a14ae0540")
	ping := conformance.Message(100, []byte{7, 0, 0, 0})
	stream := append(append([]byte{}, point...), ping...)
	cases := []struct {
		what   string
		data   []byte
		max    uint32
		index  int
		rule   string
		offset int
		framed bool
	}{
		{"cut inside a header", append(append([]byte{}, point...), ping[:7]...), 0, 1, codec.RuleTruncated, 26, false},
		{"bad magic", append(append([]byte{}, point...), append([]byte("SDP3"), ping[4:]...)...), 0, 1, codec.RuleMessage, 26, false},
		{"over the maximum", stream, 10, 0, codec.RuleMessage, 6, false},
		{"cut inside a payload", stream[:len(stream)-1], 0, 1, codec.RuleTruncated, 36, false},
		{"unknown type id", append(append([]byte{}, point...), conformance.Message(99, []byte{7, 0, 0, 0})...), 0, 1, codec.RuleMessage, 30, true},
		// The type id is checked before the maximum, but a payload over the
		// maximum is not read, so the message cannot be skipped.
		{"unknown type id over the maximum", append(append([]byte{}, point...), conformance.Message(99, make([]byte, 40))...), 20, 1, codec.RuleMessage, 30, false},
		{"unknown type id at the maximum", append(append([]byte{}, point...), conformance.Message(99, make([]byte, 20))...), 20, 1, codec.RuleMessage, 30, true},
		{"unknown type id in a cut message", append(append([]byte{}, point...), conformance.Message(99, []byte{7, 0, 0, 0})[:12]...), 0, 1, codec.RuleMessage, 30, false},
		{"bad payload", append(append([]byte{}, point...), conformance.Message(100, []byte{7, 0, 0})...), 0, 1, codec.RuleTruncated, 36, true},
	}
	for _, c := range cases {
		off, index := 0, 0
		var err error
		for {
			var m *codec.StreamMessage
			m, err = codec.ReadStreamMessage(s, c.data, off, index, "", codec.StreamOptions{MaxSize: c.max})
			if m == nil || err != nil {
				break
			}
			off += m.Size
			index++
		}
		var se *codec.StreamError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a stream error", c.what, err)
			continue
		}
		if se.Index != c.index || se.Rule != c.rule || se.Offset != c.offset || se.Framed != c.framed {
			t.Errorf("%s: message #%d, rule %s, offset %d, framed %v; want #%d, %s, %d, %v (%v)", c.what, se.Index, se.Rule, se.Offset, se.Framed, c.index, c.rule, c.offset, c.framed, err)
		}
	}
	// The whole stream, then its end.
	m, err := codec.ReadStreamMessage(s, stream, 26, 1, "", codec.StreamOptions{})
	if err != nil || m.Type != "Ping" || m.Size != 14 {
		t.Fatalf("second message: %+v, %v", m, err)
	}
	if m, err := codec.ReadStreamMessage(s, stream, len(stream), 2, "", codec.StreamOptions{}); m != nil || err != nil {
		t.Errorf("the end of the stream: %+v, %v", m, err)
	}
}
