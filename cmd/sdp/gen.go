package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sdp/gen"
	"sdp/gen/rust"
	"sdp/schema"
)

// errUsage means the flags were wrong and the usage was already printed.
var errUsage = errors.New("usage")

func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags that may come before or after the positional
// arguments (`sdp gen schema.sdp --lang go` works too).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, errUsage
			}
			return nil, errUsage
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func languageList() string { return strings.Join(gen.Languages(), ", ") }

// plural is "1 union" or "2 unions": a count and the noun that agrees with
// it. Every message that counts things uses it (or agree, for a verb).
func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, agree(n, one, many))
}

// agree is one when n is 1, many otherwise: "1 of 3 schemas has errors".
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gen", "sdp gen --lang LANG --out DIR [--package NAME] [--module] SCHEMA.sdp", stderr)
	lang := fs.String("lang", "", "target language: "+languageList())
	out := fs.String("out", "", "output directory (created if missing)")
	pkg := fs.String("package", "", "package, crate, module or namespace name (default: the schema's base name)")
	module := fs.Bool("module", false, "rust only: write one self-contained NAME.rs for a module of your crate (include! it from build.rs's OUT_DIR) instead of a crate")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *lang == "" || *out == "" || len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	g, err := gen.Lookup(*lang)
	if err != nil {
		return err
	}
	if *module {
		if *lang != "rust" {
			return fmt.Errorf("--module applies to --lang rust only")
		}
		g = rust.GenerateModule
	}
	s, err := schema.Load(pos[0])
	if err != nil {
		return err
	}
	files, err := g(s, gen.Options{Package: *pkg})
	if err != nil {
		return err
	}
	if err := gen.Write(*out, files); err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "wrote %s\n", f.Path)
	}
	return nil
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "sdp check SCHEMA.sdp...", stderr)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	failed := 0
	for _, p := range pos {
		s, err := schema.Load(p)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s: ok (%s, %s, %s)\n", p, plural(len(s.Structs), "struct", "structs"), plural(len(s.Enums), "enum", "enums"), plural(len(s.Unions), "union", "unions"))
	}
	if failed > 0 {
		return fmt.Errorf("%d of %s %s errors", failed, plural(len(pos), "schema", "schemas"), agree(failed, "has", "have"))
	}
	return nil
}
