package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sdp/compat"
	"sdp/schema"
)

const compatSynopsis = `sdp compat [--rename OLD=NEW]... [--json] OLD.sdp NEW.sdp

Compares two versions of a schema type by type: for every type both hold
(matched by name, or by --rename), whether its wire shape is identical, and
if not, why (field added, removed, moved or retyped; enum or union changes;
message type id changed). Renames, doc comments and declaration order are
not wire changes and are reported as notes. One line per finding:
file:line:col: Type: message. Exit status: 0 when every shared type is
wire-identical, 1 when not, 2 on errors. docs/compat.md explains the rules.

Examples:
  sdp compat registry-v1.sdp registry.sdp
  sdp compat --rename Param=Parameter old/plugins.sdp plugins.sdp
  sdp compat --json old.sdp new.sdp > compat.json`

const fingerprintSynopsis = `sdp fingerprint SCHEMA.sdp [TYPE...]

Prints the 64-bit fingerprint of every type's wire shape (or of the named
types): 16 hex digits, the type's name, and for structs the message type id.
Two versions of a type have the same fingerprint exactly when their wire
shapes are identical (docs/wire-format.md, "Fingerprints").

Examples:
  sdp fingerprint plugins.sdp
  sdp fingerprint plugins.sdp PluginRegistry`

// renameFlags collects repeated --rename OLD=NEW flags.
type renameFlags map[string]string

func (r renameFlags) String() string { return "" }

func (r renameFlags) Set(v string) error {
	from, to, ok := strings.Cut(v, "=")
	if !ok || from == "" || to == "" {
		return fmt.Errorf("want OLD=NEW, got %q", v)
	}
	r[from] = to
	return nil
}

// exitError ends a command with a given exit status after its output.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func cmdCompat(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compat", compatSynopsis, stderr)
	renames := renameFlags{}
	fs.Var(renames, "rename", "a type renamed from OLD to NEW (repeatable)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fs.Usage()
		return errUsage
	}
	var schemas [2]*schema.Schema
	for i, p := range pos {
		if schemas[i], err = schema.Load(p); err != nil {
			return &exitError{2, err.Error()}
		}
	}
	r, err := compat.Compare(schemas[0], schemas[1], renames)
	if err != nil {
		return &exitError{2, err.Error()}
	}
	if *asJSON {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		printCompat(stdout, r)
	}
	if !r.Compatible {
		return &exitError{1, ""}
	}
	return nil
}

// printCompat writes one line per change, then a summary.
func printCompat(w io.Writer, r *compat.Report) {
	var changed []string
	shared, added, removed := 0, 0, 0
	for _, t := range r.Types {
		switch t.Status {
		case "added":
			added++
		case "removed":
			removed++
		default:
			shared++
		}
		if t.Status == "changed" {
			changed = append(changed, t.Name)
		}
		for _, c := range t.Changes {
			at, other := c.New, c.Old
			if at.File == "" {
				at, other = c.Old, schema.Pos{}
			}
			line := fmt.Sprintf("%s: %s: %s", at, t.Name, c.Message)
			if other.File != "" && other != at {
				line += fmt.Sprintf(" (old: %s)", other)
			}
			fmt.Fprintln(w, line)
		}
	}
	extra := fmt.Sprintf("; %d only in %s, %d only in %s", removed, r.Old, added, r.New)
	if len(changed) == 0 {
		what := fmt.Sprintf("all %d shared types are", shared)
		switch shared {
		case 0:
			what = "no type is shared, so none is"
		case 1:
			what = "the one shared type is"
		}
		fmt.Fprintf(w, "sdp compat: %s wire-identical%s\n", what, extra)
		return
	}
	fmt.Fprintf(w, "sdp compat: %d of %s changed %s wire shape (%s)%s\n", len(changed), plural(shared, "shared type", "shared types"),
		agree(len(changed), "its", "their"), strings.Join(changed, ", "), extra)
}

func cmdFingerprint(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fingerprint", fingerprintSynopsis, stderr)
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
	for _, d := range decls {
		line := schema.FormatFingerprint(schema.Fingerprint(d)) + "  " + d.DeclName()
		if st, ok := d.(*schema.Struct); ok {
			line += fmt.Sprintf("  @id(%d)", st.ID)
		}
		fmt.Fprintln(stdout, line)
	}
	return nil
}

// namedDecls loads the schema at path and returns the declarations named,
// in the order given, or every declaration when names is empty.
func namedDecls(path string, names []string) ([]schema.Decl, error) {
	s, err := schema.Load(path)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return s.Decls, nil
	}
	var decls []schema.Decl
	for _, name := range names {
		d := s.Lookup(name)
		if d == nil {
			return nil, fmt.Errorf("%s has no type %q", path, name)
		}
		decls = append(decls, d)
	}
	return decls, nil
}
