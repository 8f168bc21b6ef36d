package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"sdp/codec"
	"sdp/schema"
)

// decodeStream writes one JSON object per message of a stream:
// {"index": 0, "offset": 0, "type": "Name", "value": {...}}, or, annotating,
// each message's annotated bytes under a line naming it. It stops at the
// first bad message, or with keepGoing goes on after a bad payload whose
// header is intact; every bad message is reported on stderr with its index
// and stream offset.
func decodeStream(s *schema.Schema, in []byte, typ string, opt codec.StreamOptions, annotate, keepGoing bool, stdout, stderr io.Writer) error {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	bad := 0
	index := 0
	for off := 0; off < len(in); index++ {
		m, err := codec.ReadStreamMessage(s, in, off, index, typ, opt)
		if err != nil {
			se, ok := err.(*codec.StreamError)
			if !ok {
				return err
			}
			bad++
			if !keepGoing || !se.Framed {
				w.Flush()
				return se
			}
			fmt.Fprintf(stderr, "sdp decode: %v\n", se)
			off += codec.HeaderSize + int(uint32(in[off+6])|uint32(in[off+7])<<8|uint32(in[off+8])<<16|uint32(in[off+9])<<24)
			continue
		}
		if m.Hello {
			if annotate {
				fmt.Fprintf(w, "# message #%d at stream offset %d (%d bytes): a hello whose fingerprints agree with the schema\n", m.Index, m.Offset, m.Size)
			} else {
				fmt.Fprintf(w, `{"index": %d, "offset": %d, "hello": true}`+"\n", m.Index, m.Offset)
			}
			off += m.Size
			continue
		}
		if annotate {
			text, err := codec.AnnotateMessageWith(s, typ, in[off:off+m.Size], opt.Options)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "# message #%d at stream offset %d (%d bytes; the offsets below count from it)\n%s", m.Index, m.Offset, m.Size, text)
		} else {
			var value bytes.Buffer
			if err := json.Compact(&value, m.JSON); err != nil {
				return err
			}
			fmt.Fprintf(w, `{"index": %d, "offset": %d, "type": %s, "value": %s}`+"\n", m.Index, m.Offset, strconv.Quote(m.Type), value.Bytes())
		}
		off += m.Size
	}
	if bad > 0 {
		return fmt.Errorf("%d of %s %s rejected", bad, plural(index, "message", "messages"), agree(bad, "was", "were"))
	}
	return nil
}

// encodeStream encodes JSON lines, each {"type": "Name", "value": {...}}
// (decode --stream's lines are accepted too: index and offset are ignored),
// as a stream of messages; a line {"hello": true}, or hello, writes a hello.
func encodeStream(s *schema.Schema, in []byte, hello bool, stdout io.Writer) error {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if hello {
		if _, err := w.Write(codec.EncodeHello(s)); err != nil {
			return err
		}
	}
	for n, line := range bytes.Split(in, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(line, &env); err != nil {
			return fmt.Errorf("line %d: %v", n+1, err)
		}
		if h := env["hello"]; h != nil {
			if string(h) != "true" {
				return fmt.Errorf(`line %d: want {"hello": true}`, n+1)
			}
			if _, err := w.Write(codec.EncodeHello(s)); err != nil {
				return err
			}
			continue
		}
		var typ string
		if err := json.Unmarshal(env["type"], &typ); err != nil || typ == "" || env["value"] == nil {
			return fmt.Errorf(`line %d: want {"type": "Name", "value": {...}}`, n+1)
		}
		msg, err := codec.EncodeMessage(s, typ, env["value"])
		if err != nil {
			return fmt.Errorf("line %d: %v", n+1, err)
		}
		if _, err := w.Write(msg); err != nil {
			return err
		}
	}
	return nil
}
