package python

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/schema"
)

// fingerprintScript prints a module's FINGERPRINTS and the FINGERPRINT of
// each class named in its arguments, as JSON.
const fingerprintScript = `import importlib, json, sys
m = importlib.import_module(sys.argv[1])
print(json.dumps({"all": {k: "%016x" % v for k, v in m.FINGERPRINTS.items()},
                  "classes": {c: "%016x" % getattr(m, c).FINGERPRINT for c in sys.argv[2:]}}))
`

// TestFingerprints checks that every generated package has, for every type,
// the fingerprint ` + "`sdp fingerprint`" + ` prints: in FINGERPRINTS, and as
// the FINGERPRINT class attribute of structs and enums.
func TestFingerprints(t *testing.T) {
	py := python3(t)
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
	schemas := allSchemas(t)
	dir := writePackages(t, schemas)
	for _, s := range schemas {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			out, err := exec.Command(sdp, "fingerprint", s.Path).CombinedOutput()
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
				t.Fatalf("sdp fingerprint printed %d types, the schema has %d:\n%s", len(want), len(s.Decls), out)
			}
			n := newNames(s)
			args := []string{"-c", fingerprintScript, s.Name}
			classOf := map[string]string{}
			for _, d := range s.Decls {
				if _, ok := d.(*schema.Union); !ok {
					args = append(args, n.decl[d])
					classOf[d.DeclName()] = n.decl[d]
				}
			}
			cmd := exec.Command(py, args...)
			cmd.Dir = dir
			out, err = cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var got struct{ All, Classes map[string]string }
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(got.All) != len(want) {
				t.Errorf("FINGERPRINTS has %d types, want %d", len(got.All), len(want))
			}
			for typ, fp := range want {
				if got.All[typ] != fp {
					t.Errorf("FINGERPRINTS[%q] = %s, sdp fingerprint %s", typ, got.All[typ], fp)
				}
				if c, ok := classOf[typ]; ok && got.Classes[c] != fp {
					t.Errorf("%s.FINGERPRINT = %s, sdp fingerprint %s", c, got.Classes[c], fp)
				}
			}
		})
	}
}
