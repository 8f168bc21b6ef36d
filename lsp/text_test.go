package lsp

import (
	"path/filepath"
	"testing"
)

func TestURIPath(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///home/me/plugins.sdp":     "/home/me/plugins.sdp",
		"file:///home/me/my%20schema.sdp": "/home/me/my schema.sdp",
		"file:///C:/work/plugins.sdp":     "C:/work/plugins.sdp",
		"untitled:Untitled-1":             "untitled:Untitled-1",
	} {
		if got := uriPath(uri); got != filepath.FromSlash(want) && got != want {
			t.Errorf("uriPath(%q) = %q, want %q", uri, got, want)
		}
	}
}

// TestPositionConversion round-trips every byte offset of a text with
// multi-byte characters (2, 3 and 4 bytes in UTF-8), CRLF and a BOM.
func TestPositionConversion(t *testing.T) {
	d := newDocument("file:///x.sdp", 1, "\xEF\xBB\xBFstruct é {\r\n  // 日本 🎵 x\r\n  a: u8,\r\n}\n")
	for off := 0; off <= len(d.text); off++ {
		p := d.position(off)
		back := d.offset(p)
		// Offsets inside a character map to its start.
		if back > off || off-back > 3 {
			t.Errorf("offset %d → %+v → %d", off, p, back)
		}
	}
	if p := d.position(len(d.text)); p.Line != 4 || p.Character != 0 {
		t.Errorf("end of text at %+v", p)
	}
	// 🎵 is 2 UTF-16 code units: "  // 日本 🎵 x", x is at unit 11.
	if got := d.offset(position{Line: 1, Character: 11}); string(d.text[got]) != "x" {
		t.Errorf("offset of x is %d (%q)", got, d.text[got:got+1])
	}
	// A schema position on line 1 counts bytes after the BOM.
	if got := d.posOffset(d.schemaPos(3)); got != 3 {
		t.Errorf("BOM: schemaPos/posOffset of 3 is %d", got)
	}
}
