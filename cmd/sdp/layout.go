package main

import (
	"encoding/json"
	"fmt"
	"io"

	"sdp/gen"
	"sdp/schema"
)

const layoutSynopsis = `sdp layout [--json] SCHEMA.sdp [TYPE...]

Prints the wire layout of every type (or of the named types), like pahole:
per struct and union variant, each field's offset, size, name and type;
per enum, its wire type and values. The headline gives the type's fixed or
minimum size, whether a struct is plain (copied in bulk), its message type
id and its fingerprint.

Offsets are exact while the fields before are fixed-size. The N-th field of
variable size ends at vN, and the fields after it are at vN+K, K bytes
after that end (docs/editors.md, "sdp layout").

Examples:
  sdp layout plugins.sdp
  sdp layout plugins.sdp Parameter
  sdp layout --json plugins.sdp > layout.json`

// isPlain is the backends' plain-struct rule (gen.PlainStruct).
func isPlain(st *schema.Struct) bool {
	_, ok := gen.PlainStruct(st)
	return ok
}

func cmdLayout(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layout", layoutSynopsis, stderr)
	asJSON := fs.Bool("json", false, "print the layouts as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	decls, err := namedDecls(pos[0], pos[1:])
	if err != nil {
		return err
	}
	layouts := make([]*schema.Layout, len(decls))
	for i, d := range decls {
		layouts[i] = schema.DeclLayout(d, isPlain)
	}
	if *asJSON {
		b, err := json.MarshalIndent(struct {
			Schema string           `json:"schema"`
			Types  []*schema.Layout `json:"types"`
		}{pos[0], layouts}, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	for i, l := range layouts {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := l.WriteText(stdout); err != nil {
			return err
		}
	}
	return nil
}
