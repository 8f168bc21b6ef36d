package ts

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// unencodableSkips are the changes of the invalid-value corpus that
// JavaScript's types cannot hold, by change kind: why, and how many cases
// of the corpus that kind may skip (TestUnencodable fails if it skips
// more). A skip is a property of the types, never of the encoder.
var unencodableSkips = map[conformance.Change]struct {
	why string
	max int
}{
	conformance.ChangeRange: {"an element of a typed array (Uint8Array, Uint16Array, ...) cannot hold a number outside " +
		"its type: the assignment stores it modulo 2^n (only elements of []u8, [N]u8 and numeric arrays are skipped)", 2},
}

// unencodableAPIs are the encode APIs the program calls on every changed
// value, in the order it prints them.
var unencodableAPIs = []string{"encodedSize", "encode", "encodeInto", "encodedMessageSize", "encodeMessage", "encodeMessageInto", "MessageWriter"}

// TestUnencodable runs the invalid-value corpus (conformance.Unencodables,
// docs/conformance.md "Values that have no encoding") through the
// JavaScript package and the TypeScript package compiled by tsc: one
// program decodes the corpus's Box, makes each case's change in
// JavaScript, calls every encode API and prints the rule and path each
// refuses it with; every line must be the reference's. A change to none
// (null) is made twice, with null and with undefined; a union holding no
// variant twice, as undefined and as an object whose kind names none.
func TestUnencodable(t *testing.T) {
	node := gentest.RequireTool(t, "node")
	s, err := schema.Load(conformance.UnencodableSchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsFiles, err := GenerateJS(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tsFiles, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := gen.Write(filepath.Join(dir, "js"), jsFiles); err != nil {
		t.Fatal(err)
	}
	if err := gen.Write(filepath.Join(dir, "ts"), tsFiles); err != nil {
		t.Fatal(err)
	}
	tsc(t, []string{filepath.Join(dir, "ts", "index.ts")})

	prog, want, skipped := unencodableProgram(t, s, cases)
	for kind, n := range skipped {
		if n > unencodableSkips[kind].max {
			t.Errorf("skipped %d cases of change %s; the table allows %d (%s)", n, kind, unencodableSkips[kind].max, unencodableSkips[kind].why)
		}
	}
	script := filepath.Join(dir, "unencodable.mjs")
	if err := os.WriteFile(script, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"js", "ts"} {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command(node, script, filepath.Join(dir, pkg, "index.js")).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(got) != len(want) {
				t.Errorf("the program printed %d lines, want %d:\n%s", len(got), len(want), out)
			}
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("got  %s\nwant %s", got[i], want[i])
				}
			}
		})
	}
}

// unencodableProgram prints the program: one run(...) per case and way of
// making its change, then the writer's own check. want are the lines it
// must print.
func unencodableProgram(t *testing.T, s *schema.Schema, cases []conformance.Unencodable) (prog string, want []string, skipped map[conformance.Change]int) {
	nm := newNames(s)
	skipped = map[conformance.Change]int{}
	var b strings.Builder
	b.WriteString(unencodablePrelude)
	for _, u := range cases {
		lhs := "v"
		inTyped := false // the target is an element of a typed array
		var t0 *schema.Type
		for _, st := range u.Target {
			if st.Field == nil {
				lhs += fmt.Sprintf("[%d]", st.Index)
				inTyped = t0.Elem.IsNumeric()
				t0 = t0.Elem
				continue
			}
			lhs += "." + nm.field[st.Field]
			t0 = st.Field.Type
		}
		if _, ok := unencodableSkips[u.Change]; ok && inTyped {
			skipped[u.Change]++
			continue
		}
		elem := u.Elem
		if elem.Kind == schema.Optional && u.Change != conformance.ChangeNull {
			elem = elem.Elem
		}
		var changes []string // [suffix, expression]...
		switch u.Change {
		case conformance.ChangeEnum:
			changes = []string{"", fmt.Sprint(u.N)}
		case conformance.ChangeNoVariant:
			changes = []string{"", "undefined", "/kind", `{ kind: "NoSuchVariant" }`}
		case conformance.ChangeBadUTF8:
			changes = []string{"", `"a\uD800b"`}
		case conformance.ChangeLength:
			changes = []string{"", fmt.Sprintf("resize(%s, %d)", lhs, u.N)}
		case conformance.ChangeNull:
			changes = []string{"", "null", "/undefined", "undefined"}
		case conformance.ChangeRange:
			if elem.Kind == schema.U64 || elem.Kind == schema.I64 {
				changes = []string{"", fmt.Sprintf("%dn", u.N)}
			} else {
				changes = []string{"", fmt.Sprint(u.N)}
			}
		case conformance.ChangeWrongType:
			changes = []string{"", "3"}
		default:
			t.Fatalf("case %s: change %s is new to this test", u.Name, u.Change)
		}
		for i := 0; i < len(changes); i += 2 {
			name := u.Name + changes[i]
			fmt.Fprintf(&b, "await run(%q, (v) => { %s = %s; });\n", name, lhs, changes[i+1])
			for _, api := range unencodableAPIs {
				want = append(want, fmt.Sprintf("%s %s: %s %q", name, api, u.Rule, u.Path))
			}
		}
	}
	b.WriteString(unencodableWriter)
	want = append(want,
		`writer over its maximum: message "message" (wrote 0 chunks)`,
		`writer at its maximum: encoded (wrote 1 chunks)`)
	base := base64.StdEncoding.EncodeToString(cases[0].Base)
	prog = strings.Replace(b.String(), "BASE64", base, 1)
	var kinds []string
	for k := range skipped {
		kinds = append(kinds, string(k))
	}
	sort.Strings(kinds)
	t.Logf("skipped changes (a property of JavaScript's types): %v", kinds)
	return prog, want, skipped
}

const unencodablePrelude = `// The invalid-value corpus (gen/ts/unencodable_test.go).
const m = await import(process.argv[2]);
const base = Uint8Array.from(atob("BASE64"), (c) => c.charCodeAt(0));

// a with n elements: its first n, or all of them and copies of its last.
function resize(a, n) {
  const out = Array.from({ length: n }, (_, i) => a[Math.min(i, a.length - 1)]);
  return ArrayBuffer.isView(a) ? new a.constructor(out) : out;
}

function outcome(fn) {
  try {
    fn();
    return "encoded";
  } catch (e) {
    if (!(e instanceof m.EncodeError)) return "threw " + e;
    // The error's own text has the layout of docs/api.md.
    const text = e.rule + (e.path === "" ? "" : " in " + e.path) + ": " + e.detail;
    if (e.message !== text) return "message " + JSON.stringify(e.message) + " is not " + JSON.stringify(text);
    return e.rule + " " + JSON.stringify(e.path);
  }
}

async function run(name, change) {
  const v = m.Box.decode(base);
  change(v);
  const buf = new Uint8Array(1 << 16);
  const apis = [
    ["encodedSize", () => v.encodedSize()],
    ["encode", () => v.encode()],
    ["encodeInto", () => v.encodeInto(buf, 3)],
    ["encodedMessageSize", () => v.encodedMessageSize()],
    ["encodeMessage", () => v.encodeMessage()],
    ["encodeMessageInto", () => v.encodeMessageInto(buf, 5)],
  ];
  for (const [api, fn] of apis) console.log(name + " " + api + ": " + outcome(fn));
  const chunks = [];
  const w = new m.MessageWriter((c) => { chunks.push(c); });
  let out;
  try {
    await w.writeMessage(v);
    out = "encoded";
  } catch (e) {
    out = outcome(() => { throw e; });
  }
  console.log(name + " MessageWriter: " + out + (chunks.length > 0 ? " (wrote " + chunks.length + " chunks)" : ""));
}
`

// unencodableWriter checks that a MessageWriter refuses a payload over its
// maximum with rule message, path message, and writes nothing; and that a
// payload of exactly the maximum is written.
const unencodableWriter = `
for (const [what, over] of [["writer over its maximum", 1], ["writer at its maximum", 0]]) {
  const v = m.Box.decode(base);
  const chunks = [];
  const w = new m.MessageWriter((c) => { chunks.push(c); }, { maxSize: base.length - over });
  let out;
  try {
    await w.writeMessage(v);
    out = "encoded";
  } catch (e) {
    out = outcome(() => { throw e; });
  }
  console.log(what + ": " + out + " (wrote " + chunks.length + " chunks)");
}
`
