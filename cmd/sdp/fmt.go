package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"sdp/schema"
)

const fmtSynopsis = `sdp fmt [-w | --check] SCHEMA.sdp...

Formats schema files in the canonical layout (docs/schema.md, "Formatting"):
one member per line with a trailing comma, four-space indents, one blank
line between declarations, @id(N) on its own line. Comments and doc comments
stay where they are; CRLF files keep CRLF. Without flags the formatted files
are written to stdout; -w rewrites the files that change; --check prints the
files that are not formatted and exits with status 1 if there are any. A
file that does not parse is reported and left alone (exit status 2).

Examples:
  sdp fmt -w schema/*.sdp
  sdp fmt --check schema/*.sdp`

func cmdFmt(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fmt", fmtSynopsis, stderr)
	write := fs.Bool("w", false, "rewrite the files that are not formatted")
	check := fs.Bool("check", false, "list the files that are not formatted; exit status 1 if any")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *write && *check {
		fs.Usage()
		return errUsage
	}
	bad, unformatted := 0, 0
	for _, p := range pos {
		src, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		out, err := schema.Format(p, src)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		changed := !bytes.Equal(src, out)
		switch {
		case *check:
			if changed {
				fmt.Fprintln(stdout, p)
				unformatted++
			}
		case *write:
			if changed {
				if err := os.WriteFile(p, out, 0o644); err != nil {
					fmt.Fprintln(stderr, err)
					bad++
				}
			}
		default:
			stdout.Write(out)
		}
	}
	switch {
	case bad > 0:
		return &exitError{2, fmt.Sprintf("%d of %s could not be formatted", bad, plural(len(pos), "file", "files"))}
	case unformatted > 0:
		return &exitError{1, ""}
	}
	return nil
}
