package java

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// unencodableSkip is a change the Java types cannot hold at a target: a
// property of the types, never of the encoder.
type unencodableSkip struct {
	change  conformance.Change
	applies func(u conformance.Unencodable) bool
	why     string
}

var unencodableSkips = []unencodableSkip{
	{conformance.ChangeEnum, func(conformance.Unencodable) bool { return true },
		"a Java enum holds only its declared values (fromWire gives null for another number, and null is rule type)"},
	{conformance.ChangeRange, func(u conformance.Unencodable) bool { return !widerHolder(u) },
		"held in a Java type of the schema type's own width (byte, short, int, long; a u64 as a long's bits; the " +
			"elements of []u16 and [4]u8 in a short[] and a byte[]): every value it can hold is in range"},
	{conformance.ChangeWrongType, func(u conformance.Unencodable) bool { return u.Target[len(u.Target)-1].Field != nil },
		"a field's declared class: javac refuses an Integer in a String or struct field (an element of a List can " +
			"hold one through an unchecked cast, and that is tested)"},
	{conformance.ChangeNull, func(u conformance.Unencodable) bool { return primitiveOf(u) != "" },
		"a primitive (int, float, ...) cannot hold null"},
}

// unencodableSkipped is how many cases the table skips: the test fails if
// it skips more (or fewer).
var unencodableSkipped = map[conformance.Change]int{
	conformance.ChangeEnum:      5,
	conformance.ChangeRange:     4,
	conformance.ChangeWrongType: 1,
}

// widerHolder reports an integer held in a wider Java type than its schema
// type (u8, u16 in int; u32 in long): a field, not an element of a
// primitive array.
func widerHolder(u conformance.Unencodable) bool {
	if u.Target[len(u.Target)-1].Field == nil {
		return false // an element of a primitive array of the wire's width
	}
	t := u.Elem
	if t.Kind == schema.Optional {
		t = t.Elem
	}
	switch t.Kind {
	case schema.U8, schema.U16, schema.U32:
		return true
	}
	return false
}

// primitiveOf is the Java type holding the changed value when it is a
// primitive ("" otherwise; an element of a primitive array is one).
func primitiveOf(u conformance.Unencodable) string {
	if u.Target[len(u.Target)-1].Field == nil {
		return strings.TrimSuffix(primArray(u.Elem.Kind), "[]")
	}
	if u.Elem.Kind == schema.Optional {
		return ""
	}
	switch u.Elem.Kind {
	case schema.Bool, schema.U8, schema.U16, schema.U32, schema.U64, schema.I8, schema.I16, schema.I32, schema.I64,
		schema.F32, schema.F64:
		return "x" // a number field: a primitive
	}
	return ""
}

// unencodableAPIs are the encode APIs the program calls, one line each.
var unencodableAPIs = []string{"encodedSize", "encode", "encodeTo", "encodedMessageSize", "encodeMessage",
	"encodeMessageTo", "MessageWriter.write"}

// TestUnencodable generates the package of the invalid-value corpus's
// schema (docs/conformance.md, "Values that have no encoding") and one
// program that, for every case Java's types can hold, decodes the base,
// makes the change, calls every encode API and prints the rule and path
// each reports; every line must be the reference codec's. The program
// also checks that a MessageWriter refuses a payload over its maximum
// (rule and path message) and writes nothing.
func TestUnencodable(t *testing.T) {
	javac := gentest.RequireTool(t, "javac")
	java := gentest.RequireTool(t, "java")
	s := gentest.LoadSchema(t, conformance.UnencodableSchemaPath())
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	pkg := packageName(s, "")
	g := &generator{s: s, pkg: pkg, names: newNames(s, pkg)}
	var body strings.Builder
	var ran []conformance.Unencodable
	skipped := map[conformance.Change]int{}
	for _, u := range cases {
		if why := skipReason(u); why != "" {
			t.Logf("%s: skipped: %s", u.Name, why)
			skipped[u.Change]++
			continue
		}
		ran = append(ran, u)
		box := pkg + "." + g.names.decl[u.Type]
		fmt.Fprintf(&body, "        {\n            %s v = %s.decode(hex(%q));\n", box, box, fmt.Sprintf("%x", u.Base))
		body.WriteString(g.changeJava(u))
		fmt.Fprintf(&body, "            all(%q, v);\n        }\n", u.Name)
	}
	for c, n := range skipped {
		if unencodableSkipped[c] != n {
			t.Errorf("%d cases of change %s skipped, the table says %d", n, c, unencodableSkipped[c])
		}
	}
	for c, n := range unencodableSkipped {
		if skipped[c] != n {
			t.Errorf("%d cases of change %s skipped, the table says %d", skipped[c], c, n)
		}
	}
	src := strings.NewReplacer("PKG", pkg, "BOX", g.names.decl[cases[0].Type], "CASES", body.String(), "BASE", fmt.Sprintf("%x", cases[0].Base)).Replace(unencodableMain)

	dir := t.TempDir()
	fs, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs = append(fs, gen.File{Path: SourceDir + strings.ReplaceAll(pkg, ".", "/") + "/unenc/Main.java", Content: []byte(src)})
	if err := gen.Write(dir, fs); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range fs {
		if strings.HasSuffix(f.Path, ".java") {
			files = append(files, filepath.Join(dir, f.Path))
		}
	}
	classes := filepath.Join(dir, "classes")
	javacRun(t, javac, classes, files)
	out, err := exec.Command(java, append(append([]string{}, javaFlags...), "-cp", classes, pkg+".unenc.Main")...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 {
			t.Fatalf("a line of the program: %q", l)
		}
		got[f[0]+" "+f[1]] = f[2]
	}
	for _, u := range ran {
		want := u.Rule + " " + u.Path
		for _, api := range unencodableAPIs {
			if g := got[u.Name+" "+api]; g != want {
				t.Errorf("%s (%s %s): %s reports %q, the reference %q", u.Name, u.TargetText(), u.Change, api, g, want)
			}
		}
	}
	if g := got["writer_maximum MessageWriter.write"]; g != "message message" {
		t.Errorf("a MessageWriter over its maximum reports %q, want \"message message\"", g)
	}
	if len(got) != len(ran)*len(unencodableAPIs)+1 {
		t.Errorf("%d lines for %d cases:\n%s", len(got), len(ran), out)
	}
}

func skipReason(u conformance.Unencodable) string {
	for _, sk := range unencodableSkips {
		if sk.change == u.Change && sk.applies(u) {
			return sk.why
		}
	}
	return ""
}

// changeJava prints the Java statements that make u's change in v.
func (g *generator) changeJava(u conformance.Unencodable) string {
	x := "v"
	var t *schema.Type
	parent := ""
	for _, st := range u.Target {
		parent = x
		if st.Field != nil {
			x += "." + g.names.field[st.Field]
			t = st.Field.Type
			continue
		}
		if primArray(t.Elem.Kind) != "" {
			x += fmt.Sprintf("[%d]", st.Index)
		} else {
			x += fmt.Sprintf(".get(%d)", st.Index)
		}
		t = t.Elem
	}
	last := u.Target[len(u.Target)-1]
	set := func(val string) string {
		if last.Field == nil && primArray(u.Elem.Kind) == "" {
			return fmt.Sprintf("            %s.set(%d, %s);\n", parent, last.Index, val)
		}
		return fmt.Sprintf("            %s = %s;\n", x, val)
	}
	switch u.Change {
	case conformance.ChangeNoVariant, conformance.ChangeNull:
		return set("null")
	case conformance.ChangeBadUTF8:
		return set(`"a\ud800b"`)
	case conformance.ChangeLength:
		return set(fmt.Sprintf("resize(%s, %d)", x, u.N))
	case conformance.ChangeRange:
		k := u.Elem.Kind
		if k == schema.Optional {
			k = u.Elem.Elem.Kind
		}
		if k == schema.U32 || k == schema.U64 || k == schema.I64 {
			return set(fmt.Sprintf("%dL", u.N))
		}
		return set(fmt.Sprint(u.N))
	case conformance.ChangeWrongType:
		return fmt.Sprintf("            wrong(%s, %d);\n", parent, last.Index)
	}
	panic("unencodable: change " + string(u.Change))
}

const unencodableMain = `package PKG.unenc;

// The invalid-value corpus (gen/java/unencodable_test.go): each case
// decodes the base, makes its change, and calls every encode API; a line
// per API: the case, the API, and the rule and path it reports, or
// "encoded".
public final class Main {
    interface Api {
        void run() throws java.lang.Exception;
    }

    static void report(java.lang.String name, java.lang.String api, Api r) {
        java.lang.String line;
        try {
            r.run();
            line = "encoded";
        } catch (PKG.EncodeException e) {
            java.lang.String text = e.path().isEmpty() ? e.rule() + ": " + e.detail()
                    : e.rule() + " in " + e.path() + ": " + e.detail();
            line = e.getMessage().equals(text) ? e.rule() + " " + e.path() : "bad-text " + e.getMessage();
        } catch (java.lang.Throwable e) {
            line = "threw " + e;
        }
        java.lang.System.out.println(name + " " + api + " " + line);
    }

    static void all(java.lang.String name, PKG.BOX v) {
        report(name, "encodedSize", () -> v.encodedSize());
        report(name, "encode", () -> v.encode());
        report(name, "encodeTo", () -> {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 << 16);
            try {
                v.encodeTo(b);
            } finally {
                if (b.position() != 0) {
                    throw new java.lang.IllegalStateException("encodeTo moved the position");
                }
            }
        });
        report(name, "encodedMessageSize", () -> v.encodedMessageSize());
        report(name, "encodeMessage", () -> v.encodeMessage());
        report(name, "encodeMessageTo", () -> {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(1 << 16);
            try {
                v.encodeMessageTo(b);
            } finally {
                if (b.position() != 0) {
                    throw new java.lang.IllegalStateException("encodeMessageTo moved the position");
                }
            }
        });
        report(name, "MessageWriter.write", () -> writeNothing(v, 0));
    }

    // Writes v through a MessageWriter (maxSize 0: the default); on an error nothing may reach the stream.
    static void writeNothing(PKG.BOX v, int maxSize) throws java.lang.Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        boolean written = false;
        try {
            new PKG.MessageWriter(out).maxSize(maxSize).write(v);
            written = true;
        } finally {
            if (!written && out.size() != 0) {
                throw new java.lang.IllegalStateException("the writer refused, but wrote " + out.size() + " bytes");
            }
        }
    }

    static byte[] hex(java.lang.String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) java.lang.Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    // A fixed array's first n elements, or all of them followed by copies of the last one.
    static float[] resize(float[] a, int n) {
        float[] r = java.util.Arrays.copyOf(a, n);
        for (int i = a.length; i < n; i++) {
            r[i] = a[a.length - 1];
        }
        return r;
    }

    static byte[] resize(byte[] a, int n) {
        byte[] r = java.util.Arrays.copyOf(a, n);
        for (int i = a.length; i < n; i++) {
            r[i] = a[a.length - 1];
        }
        return r;
    }

    static <T> java.util.List<T> resize(java.util.List<T> a, int n) {
        java.util.List<T> r = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            r.add(a.get(java.lang.Math.min(i, a.size() - 1)));
        }
        return r;
    }

    // Puts the Integer 3 into a List of another class, through an unchecked cast.
    @java.lang.SuppressWarnings({"unchecked", "rawtypes"})
    static void wrong(java.util.List<?> l, int i) {
        ((java.util.List) l).set(i, java.lang.Integer.valueOf(3));
    }

    public static void main(java.lang.String[] args) throws java.lang.Exception {
CASES
        // A payload over the writer's maximum: rule and path message, nothing written.
        PKG.BOX ok = PKG.BOX.decode(hex("BASE"));
        report("writer_maximum", "MessageWriter.write", () -> writeNothing(ok, 8));
    }
}
`
