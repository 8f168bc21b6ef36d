package randschema

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// Closure prints the part of a schema a failure needs: the struct with the
// given message type id and every declaration it uses, in schema syntax, with
// every struct's message type id made explicit so the failing input (plain
// or framed as a message) means the same in the smaller schema. Doc comments
// are kept. It returns nil if no struct has the id.
func Closure(s *schema.Schema, typeID uint16) []byte {
	root := s.StructByID(typeID)
	if root == nil {
		return nil
	}
	need := map[schema.Decl]bool{}
	var visitType func(t *schema.Type)
	var visitDecl func(d schema.Decl)
	fields := func(fs []*schema.Field) {
		for _, f := range fs {
			visitType(f.Type)
		}
	}
	visitType = func(t *schema.Type) {
		if t.Elem != nil {
			visitType(t.Elem)
		}
		if d := t.Decl(); d != nil {
			visitDecl(d)
		}
	}
	visitDecl = func(d schema.Decl) {
		if need[d] {
			return
		}
		need[d] = true
		switch d := d.(type) {
		case *schema.Struct:
			fields(d.Fields)
		case *schema.Union:
			for _, v := range d.Variants {
				fields(v.Fields)
				if v.Struct != nil {
					visitDecl(v.Struct)
				}
			}
		}
	}
	visitDecl(root)
	var b strings.Builder
	for _, d := range s.Decls {
		if need[d] {
			printDecl(&b, d)
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

func printDoc(b *strings.Builder, indent string, doc []string) {
	for _, l := range doc {
		fmt.Fprintf(b, "%s/// %s\n", indent, l)
	}
}

func printFields(b *strings.Builder, indent string, fs []*schema.Field) {
	for _, f := range fs {
		printDoc(b, indent, f.Doc)
		fmt.Fprintf(b, "%s%s: %s,\n", indent, f.Name, f.Type)
	}
}

func printDecl(b *strings.Builder, d schema.Decl) {
	printDoc(b, "", d.DeclDoc())
	switch d := d.(type) {
	case *schema.Struct:
		fmt.Fprintf(b, "@id(%d)\nstruct %s {\n", d.ID, d.Name)
		printFields(b, "    ", d.Fields)
		b.WriteString("}\n")
	case *schema.Enum:
		fmt.Fprintf(b, "enum %s: %s {\n", d.Name, d.Base)
		for _, v := range d.Values {
			printDoc(b, "    ", v.Doc)
			fmt.Fprintf(b, "    %s = %d,\n", v.Name, v.Value)
		}
		b.WriteString("}\n")
	case *schema.Union:
		fmt.Fprintf(b, "union %s {\n", d.Name)
		for _, v := range d.Variants {
			printDoc(b, "    ", v.Doc)
			switch v.Kind {
			case schema.VariantUnit:
				fmt.Fprintf(b, "    %s,\n", v.Name)
			case schema.VariantStruct:
				fmt.Fprintf(b, "    %s,\n", v.Struct.Name)
			case schema.VariantInline:
				var inner strings.Builder
				printFields(&inner, "        ", v.Fields)
				if inner.Len() == 0 {
					fmt.Fprintf(b, "    %s {},\n", v.Name)
				} else {
					fmt.Fprintf(b, "    %s {\n%s    },\n", v.Name, inner.String())
				}
			}
		}
		b.WriteString("}\n")
	}
}
