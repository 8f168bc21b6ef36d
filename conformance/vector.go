package conformance

import "testing"

// Vector is one request to a testee with its expected answer, for corpora
// built in memory (the random-schema suites of conformance/randschema):
// Rule is empty for a valid input, whose re-encoding is Want; otherwise
// the input must be rejected for Rule. Ref, when not nil, is the reference
// codec's rejection of an OpRoundtrip or OpMessage vector: a testee that
// reports the offset and path must report Ref's.
type Vector struct {
	ID     string
	Op     byte
	TypeID uint16
	Input  []byte
	Want   []byte
	Rule   string
	Ref    *Rejection
}

// RunVectors sends every vector to the testee and reports each failure by
// the vector's ID. It returns the number of vectors that passed and the
// vectors that failed. After a testee crash the remaining vectors are
// skipped. A rejection that carries an offset and path must carry Ref's.
func RunVectors(t *testing.T, testee Testee, vectors []Vector) (passed int, failed []Vector) {
	t.Helper()
	return runVectors(t, testee, vectors, DetailNone)
}

// RunLangVectors is RunVectors for a language: every rejection of a vector
// with a Ref must carry what RequiresDetail(lang) says.
func RunLangVectors(t *testing.T, lang string, testee Testee, vectors []Vector) (passed int, failed []Vector) {
	t.Helper()
	return runVectors(t, testee, vectors, RequiresDetail(lang))
}

func runVectors(t *testing.T, testee Testee, vectors []Vector, detail Detail) (passed int, failed []Vector) {
	t.Helper()
	r := &run{t: t, testee: testee, known: map[string]*knownFailure{}, detail: detail}
	for _, v := range vectors {
		want := v.Want
		if want == nil && v.Rule == "" {
			want = []byte{}
		}
		r.expect(v.ID, v.Op, v.TypeID, v.Input, want, v.Rule, v.Ref)
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
