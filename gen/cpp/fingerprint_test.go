package cpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// fingerprintDecl matches a fingerprint in a header: a struct's or union's
// kFingerprint member after its doc comment (which names the C++ type), or
// an enum's specialization of kFingerprint<T>.
var fingerprintDecl = regexp.MustCompile(
	`/// The fingerprint of the wire shape of (\w+) \(docs/compat\.md\)\.\n\s*` +
		`(?:static constexpr std::uint64_t kFingerprint|template <>\ninline constexpr std::uint64_t kFingerprint<(\w+)>) = 0x([0-9a-f]{16});\n`)

// TestFingerprints checks that the header of every corpus schema (and of
// clashSchema) gives every type the fingerprint `sdp fingerprint` prints,
// on the type's C++ name.
func TestFingerprints(t *testing.T) {
	sdp := filepath.Join(t.TempDir(), "sdp")
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = gentest.Root(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	clashes := filepath.Join(t.TempDir(), "clashes.sdp")
	if err := os.WriteFile(clashes, []byte(clashSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, name := range corpus(t) {
		paths = append(paths, conformance.SchemaPath(name))
	}
	for _, path := range append(paths, clashes) {
		path := path
		s := gentest.LoadSchema(t, path)
		t.Run(s.Name, func(t *testing.T) {
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
			if len(want) != len(s.Decls) {
				t.Errorf("sdp fingerprint printed %d types, the schema has %d", len(want), len(s.Decls))
			}
			g, err := newGenerator(s, gen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]schema.Decl{}
			for _, d := range s.Decls {
				byName[g.name(d)] = d
			}
			got := map[string]string{}
			for _, m := range fingerprintDecl.FindAllStringSubmatch(string(g.header()), -1) {
				d := byName[m[1]]
				if d == nil {
					t.Errorf("a fingerprint for %s, which is no type of the schema", m[1])
					continue
				}
				if _, isEnum := d.(*schema.Enum); isEnum != (m[2] != "") || isEnum && m[2] != m[1] {
					t.Errorf("%s: the fingerprint of the wrong kind or type: %q", m[1], m[0])
				}
				got[d.DeclName()] = m[3]
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
