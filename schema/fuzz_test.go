package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the parser or checker panic or hang,
// and that a schema either loads or reports at least one positioned error.
// Seeds: the conformance schemas and the invalid schemas in testdata.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../conformance/schemas/*.sdp", "testdata/errors/*.sdp"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("struct A { a: [4294967295][4294967295]u64 }"))
	f.Add([]byte("union U { A { b: ??[]U } }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Parse("fuzz.sdp", src)
		if err != nil {
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			return
		}
		for _, st := range s.Structs {
			if st.MinSize() < 0 || st.MinSize() >= maxTypeSize {
				t.Fatalf("struct %s has MinSize %d", st.Name, st.MinSize())
			}
		}
	})
}
