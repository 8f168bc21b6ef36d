package compat

import (
	"regexp"
	"strings"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/schema"
)

func parse(t *testing.T, name, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func compare(t *testing.T, old, new string, renames map[string]string) *Report {
	t.Helper()
	r, err := Compare(parse(t, "old.sdp", old), parse(t, "new.sdp", new), renames)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func typeOf(r *Report, name string) *Type {
	for i := range r.Types {
		if r.Types[i].Name == name {
			return &r.Types[i]
		}
	}
	return nil
}

const base = `
/// A plugin.
struct Plugin {
    id: u32,
    name: str,
    params: []Param,
    kind: Kind,
    shape: Shape,
    pad: [4]u8,
}
struct Param { name: str, value: f64 }
enum Kind: u8 { Synth, Effect = 5 }
union Shape { None, Circle { r: f32 }, Param }
`

func TestKinds(t *testing.T) {
	cases := []struct {
		what, new, typ, kind string
		breaking             bool
	}{
		{"field added", strings.Replace(base, "    pad: [4]u8,", "    pad: [4]u8,\n    extra: u8,", 1), "Plugin", "field_added", true},
		{"field removed", strings.Replace(base, "    name: str,\n", "", 1), "Plugin", "field_removed", true},
		{"fields reordered", strings.Replace(base, "    id: u32,\n    name: str,", "    name: str,\n    id: u32,", 1), "Plugin", "field_moved", true},
		{"field type", strings.Replace(base, "id: u32", "id: u64", 1), "Plugin", "field_type", true},
		{"fixed array length", strings.Replace(base, "[4]u8", "[5]u8", 1), "Plugin", "field_type", true},
		{"used type changed", strings.Replace(base, "value: f64", "value: f32", 1), "Plugin", "field_type", true},
		{"enum base", strings.Replace(base, "Kind: u8", "Kind: u16", 1), "Kind", "enum_base", true},
		{"enum number", strings.Replace(base, "Effect = 5", "Effect = 6", 1), "Kind", "enum_value_number", true},
		{"enum value added", strings.Replace(base, "Effect = 5 }", "Effect = 5, Other }", 1), "Kind", "enum_value_added", true},
		{"enum value removed", strings.Replace(base, "Synth, ", "", 1), "Kind", "enum_value_removed", true},
		{"variants reordered", strings.Replace(base, "None, Circle { r: f32 }", "Circle { r: f32 }, None", 1), "Shape", "variant_moved", true},
		{"variant added", strings.Replace(base, "Param }", "Param, Square }", 1), "Shape", "variant_added", true},
		{"variant removed", strings.Replace(base, "None, ", "", 1), "Shape", "variant_removed", true},
		{"variant field", strings.Replace(base, "r: f32", "r: f64", 1), "Shape", "field_type", true},
		{"message id", strings.Replace(base, "struct Param", "@id(7) struct Param", 1), "Param", "message_id", true},
		{"positional id", "struct First { x: u8 }\n" + base, "Plugin", "message_id", true},
		{"field renamed", strings.Replace(base, "id: u32", "ident: u32", 1), "Plugin", "field_renamed", false},
		{"variant renamed", strings.Replace(base, "Circle {", "Round {", 1), "Shape", "variant_renamed", false},
		{"enum value renamed", strings.Replace(base, "Synth,", "Instrument,", 1), "Kind", "enum_value_renamed", false},
		{"doc comment", strings.Replace(base, "/// A plugin.", "/// An audio plugin.", 1), "Plugin", "doc", false},
	}
	for _, c := range cases {
		r := compare(t, base, c.new, nil)
		ty := typeOf(r, c.typ)
		if ty == nil {
			t.Errorf("%s: no report for %s", c.what, c.typ)
			continue
		}
		found := false
		for _, ch := range ty.Changes {
			if ch.Kind == c.kind && ch.Breaking == c.breaking {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %s has no %s change (breaking %v): %+v", c.what, c.typ, c.kind, c.breaking, ty.Changes)
		}
		if r.Compatible == c.breaking {
			t.Errorf("%s: compatible = %v", c.what, r.Compatible)
		}
		if (ty.Status == "changed") != c.breaking {
			t.Errorf("%s: status %s", c.what, ty.Status)
		}
	}
}

func TestRenamedTypes(t *testing.T) {
	renamed := strings.NewReplacer("Param", "Parameter").Replace(base)
	r := compare(t, base, renamed, nil)
	if ty := typeOf(r, "Param"); ty == nil || ty.Status != "removed" || len(ty.Changes) != 1 || !strings.Contains(ty.Changes[0].Message, "--rename Param=Parameter") {
		t.Errorf("a renamed type without --rename: %+v", ty)
	}
	if !r.Compatible {
		t.Error("a removed and an added type made the schemas incompatible")
	}
	r = compare(t, base, renamed, map[string]string{"Param": "Parameter"})
	if ty := typeOf(r, "Parameter"); ty == nil || ty.Status != "identical" || ty.OldName != "Param" {
		t.Errorf("a renamed type with --rename: %+v", ty)
	}
	if _, err := Compare(parse(t, "old.sdp", base), parse(t, "new.sdp", base), map[string]string{"Nope": "Plugin"}); err == nil {
		t.Error("a rename of an unknown type is not an error")
	}
}

var fieldLine = regexp.MustCompile(`(?m)^(    )([A-Za-z_][A-Za-z0-9_]*)(: )`)

// TestRandomMutations compares random schemas with copies changed in ways
// that are not wire changes (every field renamed, every doc comment
// changed, every type renamed) and in ways that are. What compat calls
// wire-identical must decode every valid encoding of the old schema and
// re-encode it to the same bytes.
func TestRandomMutations(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		su, err := randschema.Generate(seed, randschema.Config{})
		if err != nil {
			t.Fatal(err)
		}
		src := string(su.Source)
		// Not wire changes.
		same := fieldLine.ReplaceAllString(src, "${1}${2}_v2${3}")
		same = regexp.MustCompile(`(?m)^(\s*)///.*$`).ReplaceAllString(same, "${1}/// changed")
		renames := map[string]string{}
		for _, d := range su.Schema.Decls {
			renames[d.DeclName()] = d.DeclName() + "V2"
			same = regexp.MustCompile(`\b`+d.DeclName()+`\b`).ReplaceAllString(same, d.DeclName()+"V2")
		}
		newSchema := parse(t, "new.sdp", same)
		r, err := Compare(su.Schema, newSchema, renames)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Compatible {
			for _, ty := range r.Types {
				if ty.Status != "identical" {
					t.Errorf("seed %d: %s: %s %+v", seed, ty.Name, ty.Status, ty.Changes)
				}
			}
			continue
		}
		for _, v := range su.Vectors {
			if v.Rule != "" || v.Op != conformance.OpRoundtrip {
				continue
			}
			name := su.Schema.StructByID(v.TypeID).Name + "V2"
			js, err := codec.Decode(newSchema, name, v.Input, codec.Options{})
			if err != nil {
				t.Fatalf("seed %d: %s: the new schema rejects a valid encoding of the old one: %v", seed, v.ID, err)
			}
			again, err := codec.Encode(newSchema, name, js)
			if err != nil || string(again) != string(v.Want) {
				t.Fatalf("seed %d: %s: re-encoding with the new schema differs (%v)", seed, v.ID, err)
			}
		}
		// A wire change: a field added to the first struct that has fields.
		loc := fieldLine.FindStringIndex(src)
		if loc == nil {
			continue
		}
		added := src[:loc[0]] + "    zz_added: u8,\n" + src[loc[0]:]
		r, err = Compare(su.Schema, parse(t, "new.sdp", added), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Compatible {
			t.Errorf("seed %d: an added field is not reported", seed)
		}
		found := false
		for _, ty := range r.Types {
			for _, ch := range ty.Changes {
				found = found || ch.Kind == "field_added"
			}
		}
		if !found {
			t.Errorf("seed %d: no field_added change", seed)
		}
	}
}
