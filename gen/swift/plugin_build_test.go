package swift

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sdp/gen/gentest"
)

// TestSwiftPMPlugin builds and runs examples/swift-plugin with `swift build`:
// its Sensors target holds sensors.sdp, which the SDPGenerator build tool
// plugin (plugins/swiftpm) turns into Swift during the build, with SDP
// naming the sdp built here. Then it edits the schema and checks that the
// next build generates the code again. The example and the plugin are
// copied, with their relative layout, below os.TempDir(), where the scratch
// directory stays for the next run.
func TestSwiftPMPlugin(t *testing.T) {
	swift := gentest.RequireTool(t, "swift")
	repo := gentest.Root(t)
	root := filepath.Join(os.TempDir(), "sdp-swift-plugin")
	sdp := filepath.Join(root, "bin", "sdp")
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	for _, dir := range []string{"examples/swift-plugin", "plugins/swiftpm"} {
		syncTree(t, filepath.Join(repo, filepath.FromSlash(dir)), filepath.Join(root, "src", filepath.FromSlash(dir)))
	}
	pkg := filepath.Join(root, "src", "examples", "swift-plugin")
	scratch := filepath.Join(root, "scratch")
	swiftBuild := func() string {
		t.Helper()
		args := append([]string{"build", "--package-path", pkg, "--scratch-path", scratch}, swiftFlags...)
		cmd := exec.Command(swift, args...)
		cmd.Env = append(os.Environ(), "SDP="+sdp)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("swift %s: %v\n%s", strings.Join(args, " "), err, tail(string(out), 8000))
		}
		t.Logf("swift build: %v", time.Since(start).Round(time.Millisecond))
		return string(out)
	}
	swiftBuild()
	out, err := exec.Command(filepath.Join(scratch, "debug", "Greenhouse")).CombinedOutput()
	if err != nil {
		t.Fatalf("Greenhouse: %v\n%s", err, out)
	}
	for _, want := range []string{"greenhouse-1 sent 2 readings in 74 bytes; round trip ok", "truncated input: truncated at offset 70 in battery: ", "readings in percent: 1"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}

	// A schema change makes the next build run the plugin's command again.
	schemaPath := filepath.Join(pkg, "Sources", "Sensors", "sensors.sdp")
	orig, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer os.WriteFile(schemaPath, orig, 0o644)
	if err := os.WriteFile(schemaPath, append(orig, "\nstruct Calibration { offset: f64 }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := swiftBuild(); !strings.Contains(out, "sdp gen --lang swift sensors.sdp") {
		t.Errorf("the build after a schema change did not run sdp gen:\n%s", tail(out, 4000))
	}
	types, _ := filepath.Glob(filepath.Join(scratch, "plugins", "outputs", "*", "Sensors", "*", "SDPGenerator", "sensors", "Sources", "Sensors", "Types.swift"))
	if len(types) != 1 {
		t.Fatalf("found %d generated Types.swift in the scratch directory: %v", len(types), types)
	}
	if b, err := os.ReadFile(types[0]); err != nil || !bytes.Contains(b, []byte("public struct Calibration")) {
		t.Errorf("%s was not regenerated after the schema changed (%v)", types[0], err)
	}
}

// syncTree copies the files under src to dst, writing only those whose
// content differs (so that unchanged files keep their times and the build
// stays incremental).
func syncTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if strings.HasPrefix(rel, ".build") || strings.HasPrefix(rel, ".swiftpm") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, b) {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
