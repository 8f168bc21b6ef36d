package lsp

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen/gentest"
)

// TestCompatCodeAction: the code action compares the editor's text with the
// file as committed at HEAD, as sdp compat does.
func TestCompatCodeAction(t *testing.T) {
	git := gentest.RequireTool(t, "git")
	dir := t.TempDir()
	path := filepath.Join(dir, "plugins.sdp")
	v1 := "struct Plugin {\n    name: str,\n    latency: u32,\n}\n\nenum Kind: u8 { A, B }\n"
	if err := os.WriteFile(path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "plugins.sdp"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v1"}} {
		cmd := exec.Command(git, append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	c := startServer(t)
	c.initialize()
	v2 := "struct Plugin {\n    name: str,\n    latency: u64,\n}\n\nenum Kind: u8 { A, B }\n"
	c.open(u, v2)
	var actions []codeAction
	c.call("textDocument/codeAction", map[string]interface{}{"textDocument": map[string]interface{}{"uri": u},
		"range": map[string]interface{}{"start": pos(0, 0), "end": pos(0, 0)}, "context": map[string]interface{}{"diagnostics": []interface{}{}}}, &actions)
	if len(actions) != 1 || actions[0].Command == nil || actions[0].Command.Command != compatCommand {
		t.Fatalf("code actions %+v", actions)
	}
	var report struct {
		Compatible bool `json:"compatible"`
	}
	c.call("workspace/executeCommand", map[string]interface{}{"command": compatCommand, "arguments": actions[0].Command.Arguments}, &report)
	if report.Compatible {
		t.Error("report says compatible")
	}
	// The message, and the findings as diagnostics (until the next change),
	// come before the command's result.
	var msg string
	var d []diagnostic
	for _, n := range c.notes {
		var method string
		json.Unmarshal(n["method"], &method)
		switch method {
		case "window/showMessage":
			var p showMessageParams
			json.Unmarshal(n["params"], &p)
			msg = p.Message
		case "textDocument/publishDiagnostics":
			var p publishDiagnosticsParams
			json.Unmarshal(n["params"], &p)
			d = p.Diagnostics
		}
	}
	if !strings.Contains(msg, "1 type changed its wire shape since HEAD (Plugin)") || !strings.Contains(msg, "latency") {
		t.Errorf("message %q", msg)
	}
	if len(d) != 1 || d[0].Severity != 2 || d[0].Range.Start.Line != 2 || !strings.Contains(d[0].Message, "latency") {
		t.Errorf("compat diagnostics %+v", d)
	}
	if d := c.change(u, 2, v1); len(d) != 0 {
		t.Errorf("diagnostics after a change %+v", d)
	}
	c.shutdown()
}
