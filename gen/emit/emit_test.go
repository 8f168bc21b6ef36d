package emit

import "testing"

func TestPrinter(t *testing.T) {
	p := New("    ")
	p.Comment("/// ", []string{"Doc.", ""})
	p.Block("fn f() {", "}", func() {
		p.P("let x = ", 1, ";")
		p.P()
		p.P()
		p.F("let y = %q;", "a")
	})
	p.P()
	want := "/// Doc.\n///\nfn f() {\n    let x = 1;\n\n    let y = \"a\";\n}\n"
	if got := string(p.Bytes()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDirective(t *testing.T) {
	p := New("    ")
	p.Block("void f(void) {", "}", func() {
		p.Directive("#if X")
		p.P("g();")
		p.Directive("#endif")
	})
	want := "void f(void) {\n#if X\n    g();\n#endif\n}\n"
	if got := string(p.Bytes()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
