package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sdp/gen/gentest"
)

// TestNeovim runs a real client: Neovim's built-in LSP client, headless,
// drives `sdp lsp` through testdata/nvim.lua (diagnostics, hover, go to
// definition, formatting, diagnostics clearing after a fix). It fails under
// CI when nvim is missing and skips locally; every wait is bounded, and the
// whole run is killed after a minute.
func TestNeovim(t *testing.T) {
	nvim := gentest.RequireTool(t, "nvim")
	dir := t.TempDir()
	bin := filepath.Join(dir, "sdp")
	build := exec.Command("go", "build", "-o", bin, "sdp/cmd/sdp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "shapes.sdp"))
	if err != nil {
		t.Fatal(err)
	}
	schemaPath := filepath.Join(dir, "shapes.sdp")
	if err := os.WriteFile(schemaPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "nvim.lua"))
	if err != nil {
		t.Fatal(err)
	}
	outPath := filepath.Join(dir, "result.txt")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SDP_BIN="+bin, "SDP_FILE="+schemaPath, "SDP_OUT="+outPath,
		"XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("nvim did not finish in a minute:\n%s", out)
	}
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	res, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatalf("no result from nvim (%v):\n%s", err, out)
	}
	t.Logf("nvim session took %v", time.Since(start).Round(time.Millisecond))
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		got[k] = append(got[k], strings.ReplaceAll(v, `\n`, "\n"))
	}
	if e := got["error"]; len(e) > 0 {
		t.Fatalf("the script failed: %v\n%s", e, res)
	}
	check := func(key string, want ...string) {
		t.Helper()
		all := strings.Join(got[key], "\n")
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s lacks %q; got:\n%s", key, w, all)
			}
		}
	}
	check("diagnostic", `13:10 unknown type "Kindd" (did you mean "Kind"?)`)
	check("hover_with_errors", "where: Point", "appear when this type and the types it holds have no errors")
	check("hover", "where: Point", "**offset** `v1`", "**size** 16 bytes", "`v1` is where `name` ends")
	check("definition", "2:7") // 1-based line, 0-based byte column of Point
	check("formatted", "    at: u64,\n", "enum Kind: u16 {\n    Start = 1,\n    Stop,\n}")
	check("diagnostics_after_fix", "0")
}
