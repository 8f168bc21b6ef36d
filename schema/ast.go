package schema

// The AST is the schema text as written, with positions; check.go turns it
// into the resolved model (model.go). Nothing outside this package sees it.

type astFile struct {
	decls []*astDecl
}

type declKind int

const (
	declStruct declKind = iota + 1
	declEnum
	declUnion
)

func (k declKind) String() string {
	return [...]string{declStruct: "struct", declEnum: "enum", declUnion: "union"}[k]
}

type ident struct {
	name string
	pos  Pos
}

type astDecl struct {
	kind     declKind
	name     ident
	doc      []string
	id       *astInt       // @id(N)
	fields   []*astField   // struct
	base     *ident        // enum: underlying type
	values   []*astValue   // enum
	variants []*astVariant // union
	broken   bool          // a syntax error inside; the members that parsed are kept
	start    Pos           // its first token (a doc comment or @id included)
	end      Pos           // its last token (the closing brace when it has one)
}

type astInt struct {
	val uint64
	pos Pos
}

type astField struct {
	doc  []string
	name ident
	typ  *astType
}

type typeForm int

const (
	formName     typeForm = iota + 1 // u32, Plugin
	formArray                        // []T
	formFixed                        // [N]T
	formOptional                     // ?T, Option<T>
)

type astType struct {
	form typeForm
	pos  Pos
	name string   // formName
	n    *astInt  // formFixed
	elem *astType // the others
}

type astValue struct {
	doc   []string
	name  ident
	value *astInt // nil: previous + 1
}

type astVariant struct {
	doc     []string
	name    ident
	hasBody bool // `V { ... }`, even if empty
	fields  []*astField
}
