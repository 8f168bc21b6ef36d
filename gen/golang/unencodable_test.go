package golang

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/schema"
)

// goSkips are the changes of the invalid-value corpus that Go's types
// cannot hold (docs/conformance.md, "Values that have no encoding"), and
// why. TestUnencodable fails if it skips a case for any other change.
var goSkips = map[conformance.Change]string{
	conformance.ChangeNoVariant: "a nil union field is the union's default value (issue #13, docs/go.md): " +
		"it encodes as the first variant, and the union interface's unexported method admits no other value without a variant",
	conformance.ChangeLength:    "a Go [N]T holds exactly N elements",
	conformance.ChangeNull:      "a field without ? is never a pointer or interface in Go (a nil slice is the empty array, a valid value)",
	conformance.ChangeRange:     "a Go integer field has its schema type's size (uint8 for u8, int16 for i16, ...)",
	conformance.ChangeWrongType: "Go fields are statically typed",
}

// goEncodeAPIs are the encode APIs the invalid-value program calls, one
// output line each per case.
var goEncodeAPIs = []string{"MarshalBinary", "AppendBinary", "WriteTo", "MarshalMessage", "AppendMessage", "MessageWriter.WriteMessage"}

// TestUnencodable generates the package of the invalid-value corpus's
// schema and one program that, for every case Go's types can hold,
// decodes the valid Box, makes the change in Go and calls every encode
// API: each must refuse the value with the reference codec's rule and
// path, in the layout of docs/api.md, and write nothing. The same program
// checks that a MessageWriter refuses a payload over its maximum, and
// what 0 and negative options mean.
func TestUnencodable(t *testing.T) {
	s, err := schema.Load(conformance.UnencodableSchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	optSchema := filepath.Join(t.TempDir(), "opts.sdp")
	if err := os.WriteFile(optSchema, []byte(optionsSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	os2, err := schema.Load(optSchema)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for pkg, sc := range map[string]*schema.Schema{"unenc": s, "opts": os2} {
		files, err := Generate(sc, gen.Options{Package: pkg})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(filepath.Join(dir, pkg), files); err != nil {
			t.Fatal(err)
		}
	}
	n := newNames(s)
	var body strings.Builder
	want := map[string]string{} // "case api" -> "rule path"
	skipped := map[conformance.Change]int{}
	for _, c := range cases {
		if _, skip := goSkips[c.Change]; skip {
			skipped[c.Change]++
			continue
		}
		x := "v"
		for _, st := range c.Target {
			if st.Field == nil {
				x += "[" + strconv.Itoa(st.Index) + "]"
			} else {
				x += "." + fieldName(st.Field)
			}
		}
		elem, optional := c.Elem, false
		if elem.Kind == schema.Optional {
			elem, optional = elem.Elem, true
		}
		var val string
		switch c.Change {
		case conformance.ChangeEnum:
			val = fmt.Sprintf("unenc.%s(%d)", n.decl[elem.Enum], c.N)
		case conformance.ChangeBadUTF8:
			val = `"a\xffb"`
		default:
			t.Fatalf("%s: change %s is neither skipped nor made", c.Name, c.Change)
		}
		fmt.Fprintf(&body, "\t{\n\t\tv := base()\n")
		if optional {
			fmt.Fprintf(&body, "\t\tx := %s\n\t\t%s = &x\n", val, x)
		} else {
			fmt.Fprintf(&body, "\t\t%s = %s\n", x, val)
		}
		fmt.Fprintf(&body, "\t\tencodeAll(%q, v)\n\t}\n", c.Name)
		for _, api := range goEncodeAPIs {
			want[c.Name+" "+api] = c.Rule + " " + strconv.Quote(c.Path)
		}
	}
	for change, k := range skipped {
		if goSkips[change] == "" {
			t.Errorf("%d cases of change %s skipped without a reason", k, change)
		}
	}
	if len(want) == 0 {
		t.Fatal("no case of the invalid-value corpus was run")
	}
	src := strings.NewReplacer("BASE", hex.EncodeToString(cases[0].Base), "CASES", body.String()).Replace(unencodableMain)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module unenctest\n\ngo 1.19\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool(t), "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the invalid-value program: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 {
			t.Errorf("bad line %q", line)
			continue
		}
		if f[0] == "option" {
			if f[2] != "ok" {
				t.Errorf("%s: %s", f[1], f[2])
			}
			got[f[0]+" "+f[1]] = f[2]
			continue
		}
		got[f[0]+" "+f[1]] = f[2]
	}
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s: %s, want %s", k, got[k], want[k])
		}
	}
	for _, k := range []string{"option writer_max", "option writer_max_0", "option reader_max_0", "option depth_0", "option memory_0", "option size_text"} {
		if got[k] != "ok" {
			t.Errorf("%s did not run", k)
		}
	}
	t.Logf("%d cases × %d encode APIs refused as the reference does; skipped by change: %v", len(want)/len(goEncodeAPIs), len(goEncodeAPIs), skipped)
}

// optionsSchema is the schema of the options checks: a recursive struct
// for the depth limit, a charged array for the memory limit and bytes for
// payload sizes.
const optionsSchema = `struct Node {
    next: ?Node,
}

union Cell {
    Empty,
    Full { a: [64]u64 },
}

struct Blob {
    cells: []Cell,
    data: []u8,
}
`

const unencodableMain = `package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"unenctest/opts"
	"unenctest/unenc"
)

func base() *unenc.Box {
	b, err := hex.DecodeString("BASE")
	if err != nil {
		panic(err)
	}
	v := new(unenc.Box)
	if err := v.UnmarshalBinary(b); err != nil {
		panic(err)
	}
	return v
}

// report prints "<case> <api> <rule> <quoted path>", or what went wrong:
// an error that is not an *EncodeError, text not in the layout, bytes
// written, or "encoded".
func report(name, api string, err error, wrote int) {
	var ee *unenc.EncodeError
	switch {
	case err == nil:
		fmt.Println(name, api, "encoded")
	case !errors.As(err, &ee):
		fmt.Println(name, api, "not an *EncodeError:", err)
	case wrote != 0:
		fmt.Println(name, api, "wrote", wrote, "bytes")
	case !errors.Is(err, ee.Rule):
		fmt.Println(name, api, "errors.Is does not find the rule")
	default:
		text := string(ee.Rule) + " in " + ee.Path + ": " + ee.Msg
		if ee.Path == "" {
			text = string(ee.Rule) + ": " + ee.Msg
		}
		if err.Error() != text {
			fmt.Println(name, api, "text not in the layout:", err.Error())
			return
		}
		fmt.Printf("%s %s %s %q\n", name, api, ee.Rule, ee.Path)
	}
}

func encodeAll(name string, v *unenc.Box) {
	b, err := v.MarshalBinary()
	report(name, "MarshalBinary", err, len(b))
	b, err = v.AppendBinary([]byte{1, 2, 3})
	report(name, "AppendBinary", err, len(b)-3)
	var buf bytes.Buffer
	_, err = v.WriteTo(&buf)
	report(name, "WriteTo", err, buf.Len())
	b, err = v.MarshalMessage()
	report(name, "MarshalMessage", err, len(b))
	b, err = v.AppendMessage([]byte{1, 2, 3})
	report(name, "AppendMessage", err, len(b)-3)
	buf.Reset()
	err = unenc.NewMessageWriter(&buf).WriteMessage(v)
	report(name, "MessageWriter.WriteMessage", err, buf.Len())
}

func option(name string, ok bool, format string, args ...interface{}) {
	if ok {
		fmt.Println("option", name, "ok")
		return
	}
	fmt.Println("option", name, fmt.Sprintf(format, args...))
}

// chain is a Node nested depth deep, encoded.
func chain(depth int) []byte {
	n := &opts.Node{}
	for i := 1; i < depth; i++ {
		n = &opts.Node{Next: n}
	}
	b, err := n.MarshalBinary()
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
CASES
	// A writer refuses a payload over its maximum with rule message, path
	// message, and writes nothing.
	{
		v := base()
		var buf bytes.Buffer
		w := unenc.NewMessageWriter(&buf)
		w.MaxSize = v.EncodedSize() - 1
		err := w.WriteMessage(v)
		var ee *unenc.EncodeError
		option("writer_max", errors.As(err, &ee) && ee.Rule == unenc.RuleMessage && ee.Path == "message" && buf.Len() == 0 &&
			err.Error() == "message in message: "+ee.Msg, "%v, %d bytes written", err, buf.Len())
	}
	// 0 and negative maximums are the default, 64 MiB: a writer writes a
	// payload of 64 MiB and refuses one byte more.
	{
		big := &opts.Blob{Data: make([]byte, opts.DefaultMaxMessageSize-8)}
		over := &opts.Blob{Data: make([]byte, opts.DefaultMaxMessageSize-7)}
		ok, text := true, ""
		for _, max := range []int{0, -1} {
			var buf bytes.Buffer
			w := opts.NewMessageWriter(&buf)
			w.MaxSize = max
			if err := w.WriteMessage(big); err != nil || buf.Len() != opts.MessageHeaderSize+opts.DefaultMaxMessageSize {
				ok, text = false, fmt.Sprintf("MaxSize %d: 64 MiB: %v, %d bytes", max, err, buf.Len())
			}
			buf.Reset()
			var ee *opts.EncodeError
			if err := w.WriteMessage(over); !errors.As(err, &ee) || ee.Rule != opts.RuleMessage || buf.Len() != 0 {
				ok, text = false, fmt.Sprintf("MaxSize %d: 64 MiB + 1: %v, %d bytes", max, err, buf.Len())
			}
		}
		option("writer_max_0", ok, "%s", text)
	}
	// A reader with MaxSize 0 or less reads a payload of 64 MiB and refuses
	// a header that declares one byte more.
	{
		msg, err := (&opts.Blob{Data: make([]byte, opts.DefaultMaxMessageSize-8)}).MarshalMessage()
		if err != nil {
			panic(err)
		}
		ok, text := true, ""
		for _, max := range []int{0, -1} {
			r := opts.NewMessageReader(bytes.NewReader(msg))
			r.MaxSize = max
			if _, err := r.ReadMessage(); err != nil {
				ok, text = false, fmt.Sprintf("MaxSize %d: 64 MiB: %v", max, err)
			}
			hdr := append([]byte(nil), msg[:opts.MessageHeaderSize]...)
			binary.LittleEndian.PutUint32(hdr[6:], opts.DefaultMaxMessageSize+1)
			r = opts.NewMessageReader(bytes.NewReader(hdr))
			r.MaxSize = max
			var se *opts.StreamError
			if _, err := r.ReadMessage(); !errors.As(err, &se) || se.Err.Rule != opts.RuleMessage || se.Err.Offset != 6 {
				ok, text = false, fmt.Sprintf("MaxSize %d: 64 MiB + 1: %v", max, err)
			}
		}
		option("reader_max_0", ok, "%s", text)
	}
	// MaxDepth 0 or less is DefaultMaxDepth, 64.
	{
		ok, text := true, ""
		for _, depth := range []int{0, -1} {
			var n opts.Node
			if err := n.UnmarshalBinaryWith(chain(opts.DefaultMaxDepth), opts.DecodeOptions{MaxDepth: depth}); err != nil {
				ok, text = false, fmt.Sprintf("MaxDepth %d: depth 64: %v", depth, err)
			}
			var de *opts.DecodeError
			if err := n.UnmarshalBinaryWith(chain(opts.DefaultMaxDepth+1), opts.DecodeOptions{MaxDepth: depth}); !errors.As(err, &de) || de.Rule != opts.RuleDepth {
				ok, text = false, fmt.Sprintf("MaxDepth %d: depth 65: %v", depth, err)
			}
		}
		option("depth_0", ok, "%s", text)
	}
	// MemoryLimit 0 is the default, 32 × input + 1 MiB: a Blob whose cells
	// (one byte each on the wire, charged as a Full cell) need less than
	// that decodes, as with that limit set; one that needs more is refused,
	// as with that limit set.
	{
		ok, text := true, ""
		for _, k := range []int{1000, 100000} {
			b, err := (&opts.Blob{Cells: make([]opts.Cell, k)}).MarshalBinary()
			if err != nil {
				panic(err)
			}
			var v opts.Blob
			err0 := v.UnmarshalBinaryWith(b, opts.DecodeOptions{})
			errSet := v.UnmarshalBinaryWith(b, opts.DecodeOptions{MemoryLimit: 32*uint64(len(b)) + 1<<20})
			errLess := v.UnmarshalBinaryWith(b, opts.DecodeOptions{MemoryLimit: 1})
			if (err0 == nil) != (errSet == nil) || errLess == nil || (k == 1000) != (err0 == nil) {
				ok, text = false, fmt.Sprintf("%d cells: limit 0: %v, the default set: %v, limit 1: %v", k, err0, errSet, errLess)
			}
		}
		option("memory_0", ok, "%s", text)
	}
	// An encoding too large for a slice is rule size with an empty path
	// (on a 64-bit host only the text can be checked here; TestSizes386
	// encodes one).
	{
		err := error(&unenc.EncodeError{Rule: unenc.RuleSize, Msg: "m"})
		option("size_text", err.Error() == "size: m", "%q", err.Error())
	}
	os.Stdout.Sync()
}
`
