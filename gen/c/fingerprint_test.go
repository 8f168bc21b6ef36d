package c

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
)

// fingerprintMacro matches a fingerprint's doc comment and macro in a header.
var fingerprintMacro = regexp.MustCompile(`/\*\* The fingerprint of (\w+)\. \*/\n#define (\w+)_FINGERPRINT UINT64_C\(0x([0-9a-f]{16})\)\n`)

// TestFingerprints checks that every schema's header defines, for every
// type, the fingerprint `sdp fingerprint` prints, under the type's macro
// prefix (the prefix of its TYPE_ID or enum values).
func TestFingerprints(t *testing.T) {
	sdp := filepath.Join(t.TempDir(), "sdp")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	for _, name := range allSchemas(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(sdp, "fingerprint", schemaPath(name)).CombinedOutput()
			if err != nil {
				t.Fatalf("sdp fingerprint: %v\n%s", err, out)
			}
			want := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if f := strings.Fields(line); len(f) >= 2 {
					want[f[1]] = f[0]
				}
			}
			s := loadSchema(t, name)
			g, err := newGenerator(s, gen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			files := generate(t, name, t.TempDir(), gen.Options{})
			var header string
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".h") {
					header = string(f.Content)
				}
			}
			got := map[string]string{}
			for _, m := range fingerprintMacro.FindAllStringSubmatch(header, -1) {
				d := s.Lookup(m[1])
				if d == nil {
					t.Errorf("a fingerprint for %s, which the schema does not declare", m[1])
					continue
				}
				if m[2] != g.macroName(d) {
					t.Errorf("%s: the macro %s_FINGERPRINT, want %s_FINGERPRINT", m[1], m[2], g.macroName(d))
				}
				got[m[1]] = m[3]
			}
			if len(want) != len(s.Decls) {
				t.Errorf("sdp fingerprint printed %d types, the schema has %d", len(want), len(s.Decls))
			}
			for typ, fp := range want {
				if got[typ] != fp {
					t.Errorf("%s: header %q, sdp fingerprint %q", typ, got[typ], fp)
				}
			}
			if len(got) != len(want) {
				t.Errorf("the header has %d fingerprints, sdp fingerprint %d", len(got), len(want))
			}
		})
	}
}
