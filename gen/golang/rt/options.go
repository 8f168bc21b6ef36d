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

// The rules of the wire format a DecodeError can name.
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

// Error implements error.
func (e *DecodeError) Error() string {
	where := e.Type
	if where != "" && e.Path != "" {
		where += "."
	}
	where += e.Path
	return "sdp: decode " + where + ": " + e.Msg + " (rule " + string(e.Rule) + ", offset " + strconv.Itoa(e.Offset) + ")"
}

// Is reports whether target is e's Rule: errors.Is(err, RuleUTF8).
func (e *DecodeError) Is(target error) bool {
	r, ok := target.(Rule)
	return ok && r == e.Rule
}

// EncodeError reports a value that has no encoding: an enum number that names
// no value, a nil union, a string that is not valid UTF-8, or a length that
// does not fit the wire format's u32.
type EncodeError struct {
	// Field is the schema field (Type.field) or type that holds the value.
	Field string
	// Msg describes the problem.
	Msg string
}

// Error implements error.
func (e *EncodeError) Error() string { return "sdp: encode " + e.Field + ": " + e.Msg }
