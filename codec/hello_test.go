package codec_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// TestHelloExample checks the hello of docs/wire-format.md's example: one
// struct, type id 1, fingerprint 0123456789abcdef.
func TestHelloExample(t *testing.T) {
	s, err := schema.Parse("x.sdp", []byte("struct Point { x: f64, y: f64 }"))
	if err != nil {
		t.Fatal(err)
	}
	hello := codec.EncodeHello(s)
	fp := codec.HelloEntries(s)[0].Fingerprint
	want := "534450320000" + "0e000000" + "01000000" + "0100"
	if got := hex.EncodeToString(hello); got[:len(want)] != want || len(hello) != 24 {
		t.Fatalf("hello %s", got)
	}
	for i := 0; i < 8; i++ {
		if hello[16+i] != byte(fp>>(8*i)) {
			t.Fatalf("fingerprint bytes %x, want %016x little-endian", hello[16:], fp)
		}
	}
	m, err := codec.ReadStreamMessage(s, hello, 0, 0, "", codec.StreamOptions{})
	if err != nil || m == nil || !m.Hello || m.Size != 24 {
		t.Fatalf("reading the schema's own hello: %+v, %v", m, err)
	}
	// The same hello read by a reader of another version of Point.
	other, err := schema.Parse("x.sdp", []byte("struct Point { x: f64, y: f32 }"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = codec.ReadStreamMessage(other, hello, 0, 0, "", codec.StreamOptions{})
	var se *codec.StreamError
	if !errors.As(err, &se) || se.Rule != codec.RuleSchema || se.Offset != 16 || se.Framed {
		t.Fatalf("another schema's hello: %v", err)
	}
}

// TestRequireHello: a reader that requires a hello refuses a stream that
// starts with anything else, and accepts an empty stream.
func TestRequireHello(t *testing.T) {
	s := load(t, "messages")
	point, _ := hex.DecodeString("534450320100100000001f85eb51b81e0940ae47e17a14ae0540")
	opt := codec.StreamOptions{RequireHello: true}
	_, err := codec.ReadStreamMessage(s, point, 0, 0, "", opt)
	var se *codec.StreamError
	if !errors.As(err, &se) || se.Rule != codec.RuleSchema || se.Offset != 4 || se.Index != 0 {
		t.Fatalf("no hello: %v", err)
	}
	if m, err := codec.ReadStreamMessage(s, nil, 0, 0, "", opt); m != nil || err != nil {
		t.Fatalf("empty stream: %v, %v", m, err)
	}
	stream := append(codec.EncodeHello(s), point...)
	m, err := codec.ReadStreamMessage(s, stream, 0, 0, "", opt)
	if err != nil || !m.Hello {
		t.Fatalf("hello: %v", err)
	}
	if m, err := codec.ReadStreamMessage(s, stream, m.Size, 1, "", opt); err != nil || m.Type == "" {
		t.Fatalf("the message after the hello: %v", err)
	}
}
