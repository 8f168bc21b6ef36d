package main

import (
	"fmt"
	"strings"
	"testing"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// TestLSPCommand runs `sdp lsp` on a scripted session: the protocol itself
// is tested in package lsp.
func TestLSPCommand(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.sdp","languageId":"sdp","version":1,"text":"struct A { b: Nope }"}}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","method":"exit"}`)
	code, out, errOut := sdp(t, []byte(in), "lsp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`"hoverProvider":true`, `unknown type \"Nope\"`, `{"jsonrpc":"2.0","id":2,"result":null}`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	// Without shutdown, exit ends with status 1 (the protocol's rule).
	if code, _, _ := sdp(t, []byte(frame(`{"jsonrpc":"2.0","method":"exit"}`)), "lsp"); code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
}
