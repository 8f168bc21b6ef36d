package conformance

import "testing"

// Vector is one request to a testee with its expected answer, for corpora
// built in memory (the random-schema suites of conformance/randschema):
// Rule is empty for a valid input, whose re-encoding is Want; otherwise
// the input must be rejected for Rule.
type Vector struct {
	ID     string
	Op     byte
	TypeID uint16
	Input  []byte
	Want   []byte
	Rule   string
}

// RunVectors sends every vector to the testee and reports each failure by
// the vector's ID. It returns the number of vectors that passed and the
// vectors that failed. After a testee crash the remaining vectors are
// skipped.
func RunVectors(t *testing.T, testee Testee, vectors []Vector) (passed int, failed []Vector) {
	t.Helper()
	r := &run{t: t, testee: testee, known: map[string]*knownFailure{}}
	for _, v := range vectors {
		want := v.Want
		if want == nil && v.Rule == "" {
			want = []byte{}
		}
		r.expect(v.ID, v.Op, v.TypeID, v.Input, want, v.Rule)
	}
	byID := map[string]Vector{}
	for _, v := range vectors {
		byID[v.ID] = v
	}
	for _, id := range r.failed {
		failed = append(failed, byID[id])
	}
	return r.passed, failed
}
