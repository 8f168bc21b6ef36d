package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
)

// sdp runs the CLI in-process and returns its exit code and outputs.
func sdp(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

const registryJSON = `{
  "plugins": [
    {
      "name": "Reverb ∞",
      "manufacturer_id": "ACME",
      "component_type": "aufx",
      "component_subtype": "rvb1",
      "parameters": [
        {
          "address": 18446744073709551615,
          "display_name": "Mix",
          "identifier": "mix",
          "unit": "%",
          "min_value": 0,
          "max_value": 100,
          "default_value": 0.5,
          "current_value": -0,
          "raw_flags": 3,
          "is_writable": true,
          "can_ramp": false
        }
      ]
    }
  ],
  "total_plugin_count": 1,
  "total_parameter_count": 1
}
`

func TestEncodeDecodeRoundTrip(t *testing.T) {
	plugins := conformance.SchemaPath("plugins")
	code, bin, errOut := sdp(t, []byte(registryJSON), "encode", "--schema", plugins, "--type", "PluginRegistry")
	if code != 0 {
		t.Fatalf("encode: exit %d: %s", code, errOut)
	}
	code, js, errOut := sdp(t, []byte(bin), "decode", "--schema", plugins, "--type", "PluginRegistry")
	if code != 0 {
		t.Fatalf("decode: exit %d: %s", code, errOut)
	}
	if js != registryJSON {
		t.Errorf("decode gave\n%s\nwant\n%s", js, registryJSON)
	}
	// As a message, typed and dispatched by type id.
	code, msg, errOut := sdp(t, []byte(registryJSON), "encode", "--schema", plugins, "--type", "PluginRegistry", "--message")
	if code != 0 || msg[10:] != bin {
		t.Fatalf("encode --message: exit %d: %s", code, errOut)
	}
	code, env, errOut := sdp(t, []byte(msg), "decode", "--schema", plugins, "--message")
	if code != 0 || !strings.HasPrefix(env, "{\n  \"type\": \"PluginRegistry\",\n  \"value\": {\n    \"plugins\": [") {
		t.Fatalf("decode --message: exit %d: %s\n%s", code, errOut, env)
	}
	code, again, errOut := sdp(t, []byte(env), "encode", "--schema", plugins, "--message")
	if code != 0 || again != msg {
		t.Fatalf("encode --message of an envelope: exit %d: %s", code, errOut)
	}
	code, ann, errOut := sdp(t, []byte(bin), "decode", "--schema", plugins, "--type", "PluginRegistry", "--annotate")
	if code != 0 || !strings.Contains(ann, "plugins[0].parameters[0].address = 18446744073709551615") {
		t.Fatalf("decode --annotate: exit %d: %s\n%s", code, errOut, ann)
	}
}

func TestPointMessage(t *testing.T) {
	messages := conformance.SchemaPath("messages")
	code, out, errOut := sdp(t, []byte(`{"x": 3.14, "y": 2.71}`), "encode", "--schema", messages, "--type", "Point", "--message")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := hex.EncodeToString([]byte(out)); got != "534450320100100000001f85eb51b81e0940ae47e17a14ae0540" {
		t.Fatalf("Point{3.14, 2.71} as a message is %s", got)
	}
	// Decoding it as another type is an error on stderr with a non-zero exit.
	code, out, errOut = sdp(t, []byte(out), "decode", "--schema", messages, "--type", "Ping", "--message")
	if code != 1 || out != "" || !strings.Contains(errOut, "sdp decode: message at offset 4 in message: type id 1 is Point, not Ping") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCodecErrors(t *testing.T) {
	prims := conformance.SchemaPath("primitives")
	tests := []struct {
		stdin string
		args  []string
		code  int
		err   string
	}{
		{`{"value": 5}`, []string{"encode", "--schema", prims, "--type", "Text"}, 1, "sdp encode: type in value: expected a string, found a number\n"},
		{`{}`, []string{"encode", "--schema", prims, "--type", "Nope"}, 1, `no type "Nope"`},
		{"\x05\x00\x00\x00ab", []string{"decode", "--schema", prims, "--type", "Text"}, 1, "sdp decode: count at offset 0 in value: string length 5 exceeds the 2 bytes remaining\n"},
		{"", []string{"decode", "--schema", prims}, 2, "Usage: sdp decode"},
		{"", []string{"encode", "--type", "Text"}, 2, "Usage: sdp encode"},
		{"", []string{"decode", "--schema", "/nonexistent.sdp", "--type", "Text"}, 1, "nonexistent.sdp"},
	}
	for _, tc := range tests {
		code, out, errOut := sdp(t, []byte(tc.stdin), tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.err)
		}
	}
}

func TestCheck(t *testing.T) {
	code, out, errOut := sdp(t, nil, "check", conformance.SchemaPath("plugins"))
	if code != 0 || !strings.HasSuffix(out, "plugins.sdp: ok (3 structs, 0 enums, 0 unions)\n") || errOut != "" {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.sdp")
	if err := os.WriteFile(bad, []byte("struct A {\n    x: Strng,\n    x: u8,\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = sdp(t, nil, "check", bad)
	if code != 1 || out != "" {
		t.Fatalf("check of a bad schema: exit %d, stdout %q", code, out)
	}
	// Every problem as file:line:col: message, then a summary.
	pos := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(bad) + `:(\d+):(\d+): `)
	if n := len(pos.FindAllString(errOut, -1)); n < 2 || !strings.Contains(errOut, "bad.sdp:2:") || !strings.Contains(errOut, "bad.sdp:3:") {
		t.Fatalf("want an error at line 2 and at line 3, each as file:line:col: message; got:\n%s", errOut)
	}
	if !strings.HasSuffix(errOut, "sdp check: 1 of 1 schema has errors\n") {
		t.Fatalf("missing summary:\n%s", errOut)
	}
}

func TestGenUnknownLanguage(t *testing.T) {
	code, out, errOut := sdp(t, nil, "gen", "--lang", "cobol", "--out", t.TempDir(), conformance.SchemaPath("plugins"))
	if code != 1 || out != "" || !strings.Contains(errOut, `sdp gen: unknown language "cobol" (available: `) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := sdp(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "sdp encode --schema") || !strings.Contains(out, "Examples:") {
		t.Fatalf("--help: exit %d:\n%s", code, out)
	}
	code, _, errOut := sdp(t, nil)
	if code != 2 || !strings.Contains(errOut, "Usage:") {
		t.Fatalf("no arguments: exit %d:\n%s", code, errOut)
	}
	code, _, errOut = sdp(t, nil, "frobnicate")
	if code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: exit %d:\n%s", code, errOut)
	}
	for _, cmd := range []string{"encode", "decode"} {
		code, _, errOut = sdp(t, nil, cmd, "--help")
		if code != 2 || !strings.Contains(errOut, "Examples:") || !strings.Contains(errOut, "-schema") {
			t.Fatalf("%s --help: exit %d:\n%s", cmd, code, errOut)
		}
	}
	code, out, _ = sdp(t, nil, "version")
	if code != 0 || !regexp.MustCompile(`^sdp \d+\.\d+\.\d+ \(wire format SDP 0\.2\)\n$`).MatchString(out) {
		t.Fatalf("version: exit %d: %q", code, out)
	}
}

func TestAnnotateError(t *testing.T) {
	// Reading{sensor_id 7, value 0, calibration: presence byte 2}.
	in := []byte{7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}
	code, out, errOut := sdp(t, in, "decode", "--schema", conformance.SchemaPath("optionals"), "--type", "Reading", "--annotate")
	want := "# Reading (optionals.sdp): 13 bytes\n" +
		"     0  07000000                          sensor_id = 7\n" +
		"     4  0000000000000000                  value = 0\n" +
		"    12  error: presence at offset 12 in calibration: presence byte is 0x02, not 0 or 1\n"
	if code != 1 || out != want || !strings.Contains(errOut, "sdp decode: presence at offset 12 in calibration: presence byte is 0x02") {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
}

// TestDecodeAnnotateLimits: --annotate summarizes a long array after its
// first elements; --max-elems N shows N of them, --full every element, in
// plain values and in streams.
func TestDecodeAnnotateLimits(t *testing.T) {
	arrays := conformance.SchemaPath("arrays")
	vals := make([]string, 30)
	for i := range vals {
		vals[i] = strconv.Itoa(i)
	}
	js := `{"values": [` + strings.Join(vals, ",") + `]}`
	code, bin, errOut := sdp(t, []byte(js), "encode", "--schema", arrays, "--type", "U32Array")
	if code != 0 {
		t.Fatalf("encode: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args    []string
		last    int // the last element annotated
		summary string
	}{
		{nil, 15, "values[16:30]: 14 more elements (56 bytes)"},
		{[]string{"--max-elems", "4"}, 3, "values[4:30]: 26 more elements (104 bytes)"},
		{[]string{"--max-elems", "30"}, 29, ""},
		{[]string{"--full"}, 29, ""},
	} {
		args := append([]string{"decode", "--schema", arrays, "--type", "U32Array", "--annotate"}, c.args...)
		code, ann, errOut := sdp(t, []byte(bin), args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		if !strings.Contains(ann, fmt.Sprintf("values[%d] = %d\n", c.last, c.last)) || strings.Contains(ann, fmt.Sprintf("values[%d] =", c.last+1)) ||
			(c.summary == "") == strings.Contains(ann, "more elements") || !strings.Contains(ann, c.summary) {
			t.Errorf("%v: want elements 0-%d and %q:\n%s", c.args, c.last, c.summary, ann)
		}
	}
	// In a stream too.
	code, msg, _ := sdp(t, []byte(js), "encode", "--schema", arrays, "--type", "U32Array", "--message")
	if code != 0 {
		t.Fatal("encode --message failed")
	}
	code, ann, errOut := sdp(t, []byte(msg), "decode", "--schema", arrays, "--stream", "--annotate", "--full")
	if code != 0 || !strings.Contains(ann, "values[29] = 29\n") || strings.Contains(ann, "more elements") {
		t.Errorf("--stream --annotate --full: exit %d: %s\n%s", code, errOut, ann)
	}
	for _, bad := range [][]string{{"--max-elems", "-1"}, {"--full", "--max-elems", "3"}, {"--full"}} {
		args := append([]string{"decode", "--schema", arrays, "--type", "U32Array"}, bad...)
		if bad[0] != "--full" || len(bad) > 1 {
			args = append(args, "--annotate")
		}
		if code, _, errOut := sdp(t, []byte(bin), args...); code == 0 {
			t.Errorf("%v: exit 0, want an error (%s)", bad, errOut)
		}
	}
}

// TestUsageListsEveryFlag: every flag of every command in `sdp`'s usage and
// in the README's command block appears in both, so the two cannot fall
// behind the commands.
func TestUsageListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)## The `sdp` command\n\n```\n(.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md has no command block under \"The `sdp` command\"")
	}
	var usageText bytes.Buffer
	run([]string{"help"}, nil, &usageText, &usageText)
	flagLine := regexp.MustCompile(`(?m)^  -([\w-]+)`)
	for _, cmd := range []string{"gen", "check", "fmt", "encode", "decode", "compat", "fingerprint"} {
		for _, where := range []struct{ name, text string }{{"README.md", string(block[1])}, {"sdp's usage", usageText.String()}} {
			if !regexp.MustCompile(`(?m)^\s*sdp ` + cmd + ` `).MatchString(where.text) {
				t.Errorf("%s does not show sdp %s", where.name, cmd)
			}
		}
		_, _, help := sdp(t, nil, cmd, "-h")
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			flag := "--" + m[1]
			if len(m[1]) == 1 {
				flag = "-" + m[1]
			}
			re := regexp.MustCompile(`(?m)^\s*sdp ` + cmd + `\b.*(\n {8,}.*)*[^\w-]` + regexp.QuoteMeta(flag) + `([^\w-]|$)`)
			for _, where := range []struct{ name, text string }{{"README.md", string(block[1])}, {"sdp's usage", usageText.String()}} {
				if !re.MatchString(where.text) {
					t.Errorf("%s: sdp %s lacks %s", where.name, cmd, flag)
				}
			}
		}
	}
}

// TestCountsAgree: a count of one takes the singular, in every message
// that counts things.
func TestCountsAgree(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.sdp", "struct A {\n    x: u8,\n    s: Shape,\n    k: Kind,\n}\n\nenum Kind: u8 {\n    Big,\n}\n\nunion Shape {\n    None,\n}\n")
	bad := write("bad.sdp", "struct A {\n    x: nope,\n}\n")
	oneB := write("one_b.sdp", "struct A {\n    x: u16,\n    s: Shape,\n    k: Kind,\n}\n\nenum Kind: u8 {\n    Big,\n}\n\nunion Shape {\n    None,\n}\n")
	msgs := write("msgs.sdp", "struct Ping {\n    seq: u8,\n}\n")
	for _, c := range []struct {
		stdin []byte
		args  []string
		want  string
	}{
		{nil, []string{"check", one}, "(1 struct, 1 enum, 1 union)"},
		{nil, []string{"check", msgs}, "(1 struct, 0 enums, 0 unions)"},
		{nil, []string{"check", bad}, "1 of 1 schema has errors"},
		{nil, []string{"check", bad, one}, "1 of 2 schemas has errors"},
		{nil, []string{"check", bad, bad}, "2 of 2 schemas have errors"},
		{nil, []string{"compat", one, oneB}, "1 of 3 shared types changed its wire shape"},
		{[]byte{0x53, 0x44, 0x50, 0x32, 1, 0, 2, 0, 0, 0, 7, 7}, []string{"decode", "--schema", msgs, "--stream", "--keep-going"}, "1 of 1 message was rejected"},
		{[]byte{7, 1}, []string{"decode", "--schema", msgs, "--type", "Ping"}, "1 byte remains after the Ping value"},
		{[]byte{1, 2, 3}, []string{"decode", "--schema", msgs, "--type", "Ping", "--annotate"}, "# Ping (msgs.sdp): 3 bytes"},
		{[]byte{1}, []string{"decode", "--schema", msgs, "--type", "Ping", "--annotate"}, "# Ping (msgs.sdp): 1 byte\n"},
	} {
		_, out, errOut := sdp(t, c.stdin, c.args...)
		if !strings.Contains(out+errOut, c.want) {
			t.Errorf("sdp %s: want %q in\n%s%s", strings.Join(c.args, " "), c.want, out, errOut)
		}
	}
}
