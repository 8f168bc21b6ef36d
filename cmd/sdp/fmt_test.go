package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmtCommand(t *testing.T) {
	dir := t.TempDir()
	messy := filepath.Join(dir, "messy.sdp")
	clean := filepath.Join(dir, "clean.sdp")
	broken := filepath.Join(dir, "broken.sdp")
	os.WriteFile(messy, []byte("struct A{x:u32 ; y:[]str}\r\n"), 0o644)
	os.WriteFile(clean, []byte("struct A {\n    x: u32,\n}\n"), 0o644)
	os.WriteFile(broken, []byte("struct A { x: }\n"), 0o644)

	code, out, errOut := sdp(t, nil, "fmt", messy)
	if code != 0 || out != "struct A {\r\n    x: u32,\r\n    y: []str,\r\n}\r\n" {
		t.Errorf("fmt: exit %d: %q %s", code, out, errOut)
	}
	if code, out, _ := sdp(t, nil, "fmt", "--check", messy, clean); code != 1 || out != messy+"\n" {
		t.Errorf("--check: exit %d: %q", code, out)
	}
	if code, _, errOut := sdp(t, nil, "fmt", "-w", messy, clean); code != 0 {
		t.Errorf("-w: exit %d: %s", code, errOut)
	}
	if code, out, _ := sdp(t, nil, "fmt", "--check", messy, clean); code != 0 || out != "" {
		t.Errorf("--check after -w: exit %d: %q", code, out)
	}
	code, _, errOut = sdp(t, nil, "fmt", "--check", broken, clean)
	if code != 2 || !strings.Contains(errOut, "broken.sdp:1:15") {
		t.Errorf("a file that does not parse: exit %d: %s", code, errOut)
	}
	if code, _, _ := sdp(t, nil, "fmt", "-w", "--check", clean); code != 2 {
		t.Errorf("-w with --check: exit %d", code)
	}
}
