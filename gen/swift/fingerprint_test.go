package swift

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
	"sdp/schema"
)

// fingerprintConst matches a type's declaration and the fingerprint
// constant that opens its body.
var fingerprintConst = regexp.MustCompile("public (?:indirect )?(?:struct|enum) (`?[A-Za-z_0-9]+`?)[^\n]*\\{\n(?:    ///[^\n]*\n)*    public static let fingerprint: UInt64 = 0x([0-9a-f]{16})\n")

// TestFingerprints checks every type's fingerprint constant against what
// `sdp fingerprint` prints for the corpus schemas.
func TestFingerprints(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sdp := filepath.Join(t.TempDir(), "sdp")
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	for _, name := range gentest.CorpusNames(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			path := conformance.SchemaPath(name)
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
			s := gentest.LoadSchema(t, path)
			g := newGen(s, gen0(name))
			byName := map[string]schema.Decl{}
			for _, d := range s.Decls {
				byName[g.typeName(d)] = d
			}
			got := map[string]string{}
			for _, m := range fingerprintConst.FindAllStringSubmatch(string(g.typesFile()), -1) {
				d := byName[m[1]]
				if d == nil {
					t.Errorf("a fingerprint for %s, which the schema does not declare", m[1])
					continue
				}
				got[d.DeclName()] = m[2]
			}
			if len(want) == 0 || len(got) != len(want) {
				t.Errorf("%d fingerprint constants for %d types", len(got), len(want))
			}
			for n, w := range want {
				if got[n] != w {
					t.Errorf("%s: fingerprint %q, sdp fingerprint prints %s", n, got[n], w)
				}
			}
		})
	}
}
