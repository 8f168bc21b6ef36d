package rust

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/schema"
)

// fingerprintConst matches a type's FINGERPRINT constant in types.rs: the
// Rust type, the schema type its doc comment names, the value.
var fingerprintConst = regexp.MustCompile("impl (\\w+) \\{\n    /// The fingerprint of the wire shape of `(\\w+)` [^\n]*\n(?:    ///[^\n]*\n)*    pub const FINGERPRINT: u64 = 0x([0-9a-f]{16});\n\\}\n")

// TestFingerprints checks that every type of every corpus schema (and the
// edge schemas) has the FINGERPRINT constant `sdp fingerprint` prints, on
// the type's Rust name.
func TestFingerprints(t *testing.T) {
	root := gentestRoot()
	sdp := filepath.Join(t.TempDir(), "sdp")
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range names {
		paths = append(paths, conformance.SchemaPath(n))
	}
	for _, path := range append(paths, extraSchemas(t)...) {
		path := path
		t.Run(filepath.Base(path), func(t *testing.T) {
			out, err := exec.Command(sdp, "fingerprint", path).CombinedOutput()
			if err != nil {
				t.Fatalf("sdp fingerprint: %v\n%s", err, out)
			}
			want := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if f := strings.Fields(line); len(f) >= 2 {
					want[f[1]] = f[0]
				}
			}
			s, err := schema.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Generate(s, gen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var types string
			for _, f := range files {
				if f.Path == "src/types.rs" {
					types = string(f.Content)
				}
			}
			g := newGenerator(s, "x")
			got := map[string]string{}
			for _, m := range fingerprintConst.FindAllStringSubmatch(types, -1) {
				d := s.Lookup(m[2])
				if d == nil {
					t.Errorf("a fingerprint for %s, which the schema does not declare", m[2])
					continue
				}
				if m[1] != g.name[d] {
					t.Errorf("%s: the fingerprint is on %s, want %s", m[2], m[1], g.name[d])
				}
				got[m[2]] = m[3]
			}
			if len(want) != len(s.Decls) {
				t.Errorf("sdp fingerprint printed %d types, the schema has %d", len(want), len(s.Decls))
			}
			for typ, fp := range want {
				if got[typ] != fp {
					t.Errorf("%s: types.rs %q, sdp fingerprint %q", typ, got[typ], fp)
				}
			}
			if len(got) != len(want) {
				t.Errorf("types.rs has %d fingerprints, sdp fingerprint %d", len(got), len(want))
			}
		})
	}
}
