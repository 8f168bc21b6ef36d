// Package compat compares two versions of a schema type by type and says
// whether each shared type's wire shape is identical, and why not
// (docs/compat.md). Wire identity is decided by schema fingerprints
// (schema.Fingerprint); the explanations come from comparing the
// declarations side by side.
package compat

import (
	"encoding/json"
	"fmt"
	"sort"

	"sdp/schema"
)

// Change is one difference between the two versions of a type.
type Change struct {
	// Kind names the difference: field_added, field_removed, field_moved,
	// field_type, variant_added, variant_removed, variant_moved,
	// variant_changed, enum_base, enum_value_added, enum_value_removed,
	// enum_value_number, message_id, kind (a struct became an enum, ...);
	// and the differences that are not wire changes: field_renamed,
	// variant_renamed, enum_value_renamed, type_renamed, doc.
	Kind string `json:"kind"`
	// Breaking reports a wire change: bytes of one version are not bytes of
	// the other.
	Breaking bool   `json:"breaking"`
	Message  string `json:"message"`
	// Old and New locate the difference in each file; a zero position (no
	// file) means the thing does not exist in that version. In JSON each is
	// {"file", "line", "col"}, or null for a zero position.
	Old schema.Pos `json:"old"`
	New schema.Pos `json:"new"`
}

// jsonPos is a position in the JSON report: snake_case keys, like every
// other key of it.
type jsonPos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func toJSONPos(p schema.Pos) *jsonPos {
	if p.File == "" {
		return nil
	}
	return &jsonPos{p.File, p.Line, p.Col}
}

// MarshalJSON writes a change with snake_case position keys, and null for
// the position in a version that does not have the thing (the old position
// of an added field, the new one of a removed field).
func (c Change) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Kind     string   `json:"kind"`
		Breaking bool     `json:"breaking"`
		Message  string   `json:"message"`
		Old      *jsonPos `json:"old"`
		New      *jsonPos `json:"new"`
	}{c.Kind, c.Breaking, c.Message, toJSONPos(c.Old), toJSONPos(c.New)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Change) UnmarshalJSON(b []byte) error {
	var v struct {
		Kind     string   `json:"kind"`
		Breaking bool     `json:"breaking"`
		Message  string   `json:"message"`
		Old      *jsonPos `json:"old"`
		New      *jsonPos `json:"new"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Change{Kind: v.Kind, Breaking: v.Breaking, Message: v.Message}
	if v.Old != nil {
		c.Old = schema.Pos{File: v.Old.File, Line: v.Old.Line, Col: v.Old.Col}
	}
	if v.New != nil {
		c.New = schema.Pos{File: v.New.File, Line: v.New.Line, Col: v.New.Col}
	}
	return nil
}

// Type is the comparison of one type.
type Type struct {
	Name    string `json:"name"`               // the name in the new schema (the old one if removed)
	OldName string `json:"old_name,omitempty"` // when renamed
	// Status is identical (same wire shape), changed, added (only in the new
	// schema) or removed (only in the old one).
	Status         string   `json:"status"`
	OldFingerprint string   `json:"old_fingerprint,omitempty"`
	NewFingerprint string   `json:"new_fingerprint,omitempty"`
	Changes        []Change `json:"changes"`
}

// Report is the comparison of two schemas.
type Report struct {
	Old   string `json:"old"` // the schemas' paths
	New   string `json:"new"`
	Types []Type `json:"types"`
	// Compatible reports that every type both schemas hold (by name or
	// rename) has the same wire shape.
	Compatible bool `json:"compatible"`
}

// Compare compares every type of old with the type of new of the same name,
// or of the name renames maps it to (old name → new name).
func Compare(old, new *schema.Schema, renames map[string]string) (*Report, error) {
	r := &Report{Old: old.Path, New: new.Path, Compatible: true}
	matched := map[schema.Decl]bool{}
	for from, to := range renames {
		if old.Lookup(from) == nil {
			return nil, fmt.Errorf("--rename %s=%s: %s has no type %s", from, to, old.Path, from)
		}
		if new.Lookup(to) == nil {
			return nil, fmt.Errorf("--rename %s=%s: %s has no type %s", from, to, new.Path, to)
		}
	}
	for _, od := range old.Decls {
		name := od.DeclName()
		if to, ok := renames[name]; ok {
			name = to
		}
		nd := new.Lookup(name)
		if nd == nil {
			r.Types = append(r.Types, Type{Name: od.DeclName(), Status: "removed", OldFingerprint: fp(od), Changes: []Change{}})
			continue
		}
		matched[nd] = true
		t := compareDecl(od, nd)
		if t.Status == "changed" {
			r.Compatible = false
		}
		r.Types = append(r.Types, t)
	}
	for _, nd := range new.Decls {
		if !matched[nd] {
			r.Types = append(r.Types, Type{Name: nd.DeclName(), Status: "added", NewFingerprint: fp(nd), Changes: []Change{}})
		}
	}
	hintRenames(r, old, new)
	return r, nil
}

func fp(d schema.Decl) string { return schema.FormatFingerprint(schema.Fingerprint(d)) }

// hintRenames notes, on a removed type, an added type of the same wire
// shape: most likely a rename, for --rename.
func hintRenames(r *Report, old, new *schema.Schema) {
	added := map[string][]string{}
	for _, t := range r.Types {
		if t.Status == "added" {
			added[t.NewFingerprint] = append(added[t.NewFingerprint], t.Name)
		}
	}
	for i, t := range r.Types {
		if t.Status != "removed" {
			continue
		}
		names := added[t.OldFingerprint]
		sort.Strings(names)
		for _, n := range names {
			r.Types[i].Changes = append(r.Types[i].Changes, Change{
				Kind: "type_renamed", Message: fmt.Sprintf("%s has the wire shape of %s in the new schema: if it was renamed, pass --rename %s=%s", t.Name, n, t.Name, n),
				Old: old.Lookup(t.Name).DeclPos(), New: new.Lookup(n).DeclPos(),
			})
		}
	}
}

// compareDecl compares two declarations matched by name.
func compareDecl(od, nd schema.Decl) Type {
	t := Type{Name: nd.DeclName(), OldFingerprint: fp(od), NewFingerprint: fp(nd), Status: "identical", Changes: []Change{}}
	if od.DeclName() != nd.DeclName() {
		t.OldName = od.DeclName()
		t.Changes = append(t.Changes, Change{Kind: "type_renamed", Message: fmt.Sprintf("renamed from %s (not a wire change)", od.DeclName()), Old: od.DeclPos(), New: nd.DeclPos()})
	}
	c := &comparer{t: &t}
	switch o := od.(type) {
	case *schema.Struct:
		if n, ok := nd.(*schema.Struct); ok {
			c.structs(o, n)
		} else {
			c.kind(od, nd)
		}
	case *schema.Enum:
		if n, ok := nd.(*schema.Enum); ok {
			c.enums(o, n)
		} else {
			c.kind(od, nd)
		}
	case *schema.Union:
		if n, ok := nd.(*schema.Union); ok {
			c.unions(o, n)
		} else {
			c.kind(od, nd)
		}
	}
	c.doc(od.DeclDoc(), nd.DeclDoc(), "", od.DeclPos(), nd.DeclPos())
	if t.OldFingerprint != t.NewFingerprint {
		t.Status = "changed"
		if !c.breaking {
			// The declarations read alike, so what differs is a type they use.
			t.Changes = append(t.Changes, Change{Kind: "field_type", Breaking: true,
				Message: "a type it uses changed its wire shape", Old: od.DeclPos(), New: nd.DeclPos()})
		}
	} else if c.breaking {
		panic("compat: a wire change in declarations of equal fingerprints: " + od.DeclName())
	}
	return t
}
