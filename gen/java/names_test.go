package java

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestReservedCoversRuntime mines the identifiers a schema name could
// collide with and fails when one is missing from the reserved set: every
// class, interface and enum the runtime declares (they share the
// generated package), the methods of SdpMessage (every struct implements
// them), and every method a generated struct or union class declares that
// is not a field's accessor.
func TestReservedCoversRuntime(t *testing.T) {
	types := regexp.MustCompile(`\b(?:class|interface|enum)\s+([A-Za-z_$][A-Za-z0-9_$]*)`)
	methods := regexp.MustCompile(`(?m)^\s+(?:public |static |abstract |final |<R\$> )*[A-Za-z_.$<>\[\]]+ ([A-Za-z_][A-Za-z0-9_]*)\(`)
	files, err := filepath.Glob(filepath.Join("runtime", "*.java"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime sources: %v", err)
	}
	comments := regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	check := func(where, name string) {
		// A Visitor's visit methods are alone in their interface.
		if strings.HasPrefix(name, "visit") {
			return
		}
		if !reserved[name] && !strings.Contains(name, "$") {
			t.Errorf("%s declares %s, which is not in the reserved set of names.go", where, name)
		}
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := comments.ReplaceAll(raw, nil)
		for _, m := range types.FindAllStringSubmatch(string(src), -1) {
			check(f, m[1])
		}
		if filepath.Base(f) == "SdpMessage.java" {
			for _, m := range methods.FindAllStringSubmatch(string(src), -1) {
				check(f, m[1])
			}
		}
	}
	// The generated classes: methods that are not accessors.
	for _, name := range []string{"plugins", "enums_unions"} {
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		fs, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g := &generator{s: s, pkg: name, names: newNames(s, name)}
		accessors := map[string]bool{}
		for _, n := range g.names.field {
			accessors[n] = true
		}
		for _, f := range fs {
			base := strings.TrimSuffix(filepath.Base(f.Path), ".java")
			if s.Lookup(base) == nil {
				continue
			}
			for _, m := range methods.FindAllStringSubmatch(string(comments.ReplaceAll(f.Content, nil)), -1) {
				if !accessors[m[1]] && m[1] != base {
					check(f.Path, m[1])
				}
			}
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"display_name": "displayName", "x_": "x", "_x": "x", "__init__": "init",
		"Offset": "offset", "a1": "a1", "URL_path": "uRLPath"} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := javadocEscape(`a */ b @c <d> & \u000a {@code x}`); got != `a *&#47; b &#64;c &lt;d&gt; &amp; &#92;u000a &#123;&#64;code x&#125;` {
		t.Errorf("javadocEscape: %s", got)
	}
}
