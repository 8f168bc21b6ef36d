// Package rt is the part of the Go backend's runtime that does not vary
// with the schema, kept as real Go source so that it is compiled, vetted and
// formatted like the rest of the project. The generator (gen/golang,
// runtime.go) copies the text after each file's marker line into the
// generated package; schema.go stands in for the declarations that the
// generated code of a schema provides.
//
// Options: DecodeOptions, the rules, DecodeError and EncodeError: the start of every _runtime.go.
package rt

import (
	"strconv"
)

// sdp:copy (the generator copies what follows this line)

// DefaultMaxDepth is the nesting limit of decoders unless DecodeOptions sets one.
const DefaultMaxDepth = 64

// DecodeOptions configure a decoder. The zero value means the defaults.
type DecodeOptions struct {
	// MaxDepth is the deepest nesting accepted: a top-level struct is at depth
	// 1, and every struct or union value inside another is one deeper (a
	// struct carried by a union variant is one deeper than its union). Zero
	// or less means DefaultMaxDepth.
	MaxDepth int
	// MemoryLimit bounds the memory a decoded value may need, in bytes of the
	// nominal sizes of the wire format's rule 11 (memory): only arrays and
	// recursive optionals of types whose values can take far more memory
	// than their encoding count. Zero means the default, 32 times the
	// input's length (a message's payload length) plus 1 MiB.
	MemoryLimit uint64
	// Reuse decodes into the value as it is instead of resetting it first:
	// its slices' capacity is reused (elements kept are decoded into, so
	// nested slices are reused too), present optionals keep their pointers,
	// a union that holds the same variant keeps its storage, and a string
	// whose bytes are unchanged is kept without a copy. A steady stream of
	// similar values then decodes without allocating, but the slices and
	// pointers of the value's previous contents are overwritten: do not keep
	// them. Strings are never overwritten (they are immutable); a decode that
	// fails resets the value to its zero value either way.
	Reuse bool
}

func (o DecodeOptions) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

// memoryLimit is the limit of rule 11 for an input of n bytes.
func (o DecodeOptions) memoryLimit(n int) uint64 {
	if o.MemoryLimit > 0 {
		return o.MemoryLimit
	}
	return 32*uint64(n) + 1<<20
}

// Rule is a rule of the wire format that an input can break, by its name in
// docs/wire-format.md (DecodeError.Rule). A Rule is an error, so that
// errors.Is(err, RuleUTF8) reports whether err is (or wraps) a DecodeError
// for that rule.
type Rule string

// Error implements error: the rule's name, so that a Rule prints as its name.
func (r Rule) Error() string { return string(r) }

// The rules of the wire format a DecodeError can name; an EncodeError names
// RuleEnum, RuleUTF8, RuleCount, RuleSize or RuleMessage.
const (
	RuleTruncated Rule = "truncated" // the input ends inside a value
	RuleTrailing  Rule = "trailing"  // bytes remain after the top-level value
	RuleBool      Rule = "bool"      // a bool byte other than 0 or 1
	RulePresence  Rule = "presence"  // an optional's presence byte other than 0 or 1
	RuleEnum      Rule = "enum"      // an enum number that names no value
	RuleUnionTag  Rule = "union_tag" // a union tag with no variant
	RuleUTF8      Rule = "utf8"      // a string that is not valid UTF-8
	RuleCount     Rule = "count"     // a count or length larger than the input can hold
	RuleDepth     Rule = "depth"     // nesting deeper than DecodeOptions.MaxDepth
	RuleMessage   Rule = "message"   // a bad message header or payload length
	RuleMemory    Rule = "memory"    // more memory than DecodeOptions.MemoryLimit
	RuleSchema    Rule = "schema"    // a stream's hello is from another version of the schema
	RuleSize      Rule = "size"      // an encoding larger than this host's slices hold (EncodeError only)
)

// DecodeError is the error of every decoder in this package.
type DecodeError struct {
	// Type is the schema type that was being decoded; empty when a message
	// was rejected before its type was known.
	Type string
	// Path locates the problem inside Type by schema field names and array
	// indexes ("plugins[3].parameters[0].display_name"), or is "message" for
	// an error in a message header; empty when the problem is at the top
	// level.
	Path string
	// Offset is the byte offset in the input where the offending value starts.
	Offset int
	// Rule is the rule of the wire format the input breaks: one of the Rule
	// constants.
	Rule Rule
	// Msg describes the problem.
	Msg string
}

// Error implements error, in the layout of every language's decode error
// (docs/api.md, "One layout of error text"): "<rule> at offset <offset> in
// <path>: <message>", without " in <path>" when Path is empty.
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return string(e.Rule) + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
	}
	return string(e.Rule) + " at offset " + strconv.Itoa(e.Offset) + " in " + e.Path + ": " + e.Msg
}

// Is reports whether target is e's Rule: errors.Is(err, RuleUTF8).
func (e *DecodeError) Is(target error) bool {
	r, ok := target.(Rule)
	return ok && r == e.Rule
}

// EncodeError reports a value that has no encoding (docs/wire-format.md,
// "Values that have no encoding"): an enum number that names no value
// (RuleEnum), a string that is not valid UTF-8 (RuleUTF8), a string or array
// longer than the wire format's u32 count (RuleCount), an encoding larger
// than this host's slices hold (RuleSize), a message payload over a
// writer's MaxSize or 4 GiB (RuleMessage). Every encode API returns it,
// and none of them writes anything then.
type EncodeError struct {
	// Rule is the rule the value breaks.
	Rule Rule
	// Path locates the value by schema field names, array indexes and union
	// variant names ("items[1].shape.Circle.name"), as a decoder's path
	// does; "message" for RuleMessage, empty for RuleSize and for a
	// problem with the top-level value itself (an enum).
	Path string
	// Msg describes the problem.
	Msg string
}

// Error implements error, in the layout of every language's encode error
// (docs/api.md, "One layout of error text"): "<rule> in <path>: <message>",
// or "<rule>: <message>" when Path is empty.
func (e *EncodeError) Error() string {
	if e.Path == "" {
		return string(e.Rule) + ": " + e.Msg
	}
	return string(e.Rule) + " in " + e.Path + ": " + e.Msg
}

// Is reports whether target is e's Rule: errors.Is(err, RuleUTF8).
func (e *EncodeError) Is(target error) bool {
	r, ok := target.(Rule)
	return ok && r == e.Rule
}
