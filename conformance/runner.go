package conformance

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// MessageMagic starts every message: "SDP2".
var MessageMagic = [4]byte{'S', 'D', 'P', '2'}

// Message frames payload as a message of the given type id: magic, u16 type
// id, u32 payload length, payload.
func Message(typeID uint16, payload []byte) []byte {
	out := make([]byte, 10+len(payload))
	copy(out, MessageMagic[:])
	binary.LittleEndian.PutUint16(out[4:], typeID)
	binary.LittleEndian.PutUint32(out[6:], uint32(len(payload)))
	copy(out[10:], payload)
	return out
}

// StartFunc starts a testee for one corpus schema.
type StartFunc func(t *testing.T, schemaName string) Testee

// Run checks a language against the whole corpus, one subtest per schema:
// every golden vector must decode and re-encode to the same bytes, plainly
// and as a message, and every invalid vector must be rejected for the rule
// the corpus names (the testee's rejection text starts with "<rule>: ", or
// is "<rule> @<offset> <path>: <message>", whose offset and path must be the
// reference codec's; a language that RequiresDetail must use the second
// form). Cases listed
// in failures/<lang>.txt are expected to fail; one that passes is an error,
// so the list can only shrink.
func Run(t *testing.T, lang string, start StartFunc) {
	names, err := SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	known := knownFailures(t, lang)
	for _, name := range names {
		name := name
		t.Run(name, func(t *testing.T) {
			s, err := schema.Load(SchemaPath(name))
			if err != nil {
				t.Fatal(err)
			}
			cases, err := Cases(name)
			if err != nil {
				t.Fatal(err)
			}
			invalid, err := Invalids(name)
			if err != nil {
				t.Fatal(err)
			}
			testee := start(t, name)
			defer func() {
				if err := testee.Close(); err != nil {
					t.Errorf("testee exit: %v", err)
				}
			}()
			r := &run{t: t, testee: testee, known: known, detail: RequiresDetail(lang)}
			for _, c := range cases {
				st := s.Struct(c.Type)
				if st == nil {
					t.Fatalf("%s: type %q is not a struct of %s", c.ID(), c.Type, name)
				}
				if c.Golden == nil {
					t.Fatalf("%s: no golden file (run go test ./conformance -update)", c.ID())
				}
				r.expect(c.ID(), OpRoundtrip, st.ID, c.Golden, c.Golden, "", nil)
				msg := Message(st.ID, c.Golden)
				r.expect(c.ID()+".message", OpMessage, st.ID, msg, msg, "", nil)
			}
			for _, v := range invalid {
				st := s.Struct(v.Type)
				if st == nil {
					t.Fatalf("%s: type %q is not a struct of %s", v.ID(), v.Type, name)
				}
				in, _ := v.Bytes()
				op := OpRoundtrip
				var err error
				if v.Message {
					op = OpMessage
					_, _, err = codec.DecodeMessage(s, in, codec.Options{})
				} else {
					_, err = codec.Decode(s, v.Type, in, codec.Options{})
				}
				ref, ok := ReferenceRejection(err)
				if !ok {
					t.Fatalf("%s: the reference codec does not reject it: %v", v.ID(), err)
				}
				r.expect(v.ID(), op, st.ID, in, nil, v.Rule, &ref)
			}
			if r.fatal {
				return
			}
			t.Logf("%s: %d cases passed, %d failed as listed in failures/%s.txt", lang, r.passed, r.expectedFail, lang)
		})
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		return // a filtered run does not see every case
	}
	for id := range known {
		if !known[id].seen {
			t.Errorf("failures/%s.txt lists %s, which is not a case of the corpus", lang, id)
		}
	}
}

type knownFailure struct{ seen bool }

type run struct {
	t            *testing.T
	testee       Testee
	known        map[string]*knownFailure
	passed       int
	expectedFail int
	fatal        bool
	failed       []string // IDs of the unexpected failures
	detail       Detail   // what rejections must carry
}

// expect runs one vector: want is the re-encoding of a golden vector, or
// nil for an invalid vector, which must be rejected for rule. ref, when not
// nil, is the reference codec's rejection of an OpRoundtrip or OpMessage
// vector: a rejection with an offset and path must carry ref's, and with
// r.detail one without them fails.
func (r *run) expect(id string, op byte, typeID uint16, input, want []byte, rule string, ref *Rejection) {
	if r.fatal {
		return
	}
	status, out, err := r.testee.Do(op, typeID, input)
	if err != nil {
		r.t.Errorf("%s: %v", id, err)
		r.failed = append(r.failed, id)
		r.fatal = true
		return
	}
	var problem string
	switch {
	case status == StatusBroken:
		problem = "testee inconsistency: " + string(out)
	case want == nil && status != StatusRejected:
		problem = "accepted an invalid input; re-encoded as " + hex.EncodeToString(out)
	case want == nil && ref != nil:
		problem = checkRejection(string(out), ref, r.detail)
	case want == nil && (op == OpStream || op == OpStreamAll):
		problem = checkStreamRejection(string(out), rule, r.detail)
	case want == nil && !bytes.HasPrefix(out, []byte(rule+": ")):
		problem = "rejected, but not for rule " + rule + " (a rejection reads \"<rule>: <message>\"): " + string(out)
	case want != nil && status == StatusRejected:
		problem = "rejected a valid input: " + string(out)
	case want != nil && status != StatusOK:
		problem = "bad status " + string(rune('0'+status))
	case want != nil && op == OpStreamAll && !bytes.Equal(out, want):
		problem = streamAllDiff(want, out)
	case want != nil && !bytes.Equal(out, want):
		problem = "re-encoding differs:\n  want " + hex.EncodeToString(want) + "\n  got  " + hex.EncodeToString(out)
	}
	kf := r.known[id]
	if kf != nil {
		kf.seen = true
	}
	switch {
	case problem == "" && kf != nil:
		r.t.Errorf("%s passes now: remove it from the failure list", id)
	case problem == "":
		r.passed++
	case kf != nil:
		r.expectedFail++
	default:
		if len(problem) > 2000 {
			problem = problem[:2000] + "..."
		}
		r.t.Errorf("%s: %s", id, problem)
		r.failed = append(r.failed, id)
	}
}

// checkRejection compares a testee's rejection text with the reference's
// rejection; detail says what the text must carry. It returns the problem,
// or "".
func checkRejection(text string, ref *Rejection, detail Detail) string {
	got, ok := ParseRejection(text)
	switch {
	case !ok:
		return "a rejection reads \"<rule>: <message>\" or \"<rule> @<offset> <path>: <message>\", not: " + text
	case got.Rule != ref.Rule:
		return "rejected, but not for rule " + ref.Rule + ": " + text
	case !got.Detail && detail >= DetailOffset:
		return "rejected for rule " + ref.Rule + " without the offset (the reference codec: " + ref.Where() + "): " + text
	case !got.Native && detail >= DetailNative:
		return "a rejection reads \"<rule> at offset <offset> in <path>: <message>\" (docs/api.md, \"One layout of error text\"), not: " + text
	case !got.HasPath && detail >= DetailPath:
		return "rejected for rule " + ref.Rule + " without the path (the reference codec: " + ref.Where() + "): " + text
	case got.Detail && (got.Offset != ref.Offset || got.HasPath && got.Path != ref.Path):
		return "rejected for rule " + ref.Rule + " at " + got.Where() + ", the reference codec at " + ref.Where() + " (" + ref.Msg + "): " + text
	}
	return ""
}

// checkStreamRejection compares a testee's rejection of a stream with the
// reference's "<rule> <index> <offset>": the language's own error text
// (docs/api.md, "One layout of error text"), or with less than
// DetailNative the testee protocol's "<rule> <index> <offset>: <message>".
func checkStreamRejection(text, rule string, detail Detail) string {
	if got, _, ok := ParseStreamRejection(text); ok {
		if got != rule {
			return "rejected as " + got + " (rule, index, stream offset), the reference reader as " + rule + ": " + text
		}
		return ""
	}
	if detail >= DetailNative {
		return "a stream rejection reads \"message <index> at stream offset <start>: <rule> at offset <offset> in <path>: <message>\" (docs/api.md), not: " + text
	}
	if !strings.HasPrefix(text, rule+": ") {
		return "rejected, but not as " + rule + " (a rejection reads \"<rule> <index> <offset>: <message>\"): " + text
	}
	return ""
}

func knownFailures(t *testing.T, lang string) map[string]*knownFailure {
	out := map[string]*knownFailure{}
	f, err := os.Open(filepath.Join(Dir(), "failures", lang+".txt"))
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line != "" {
			out[line] = &knownFailure{}
		}
	}
	return out
}
