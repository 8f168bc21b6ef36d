package conformance

import "testing"

func TestParseRejection(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
		want Rejection
	}{
		{"count: too long", true, Rejection{Rule: "count", Msg: "too long"}},
		{"union_tag @12 shape: tag 9", true, Rejection{Rule: "union_tag", Detail: true, HasPath: true, Offset: 12, Path: "shape", Msg: "tag 9"}},
		{"trailing @7 : 1 byte after: it", true, Rejection{Rule: "trailing", Detail: true, HasPath: true, Offset: 7, Msg: "1 byte after: it"}},
		{"utf8 @3 plugins[3].parameters[0].display_name: bad", true, Rejection{Rule: "utf8", Detail: true, HasPath: true, Offset: 3, Path: "plugins[3].parameters[0].display_name", Msg: "bad"}},
		{"message @4 message: unknown id", true, Rejection{Rule: "message", Detail: true, HasPath: true, Offset: 4, Path: "message", Msg: "unknown id"}},
		{"bool @4: offset only", true, Rejection{Rule: "bool", Detail: true, Offset: 4, Msg: "offset only"}},
		{"count 2 14: a stream rejection", false, Rejection{}},
		{"count @x a: m", false, Rejection{}},
		{"count @3 a b: m", false, Rejection{}},
		{"count @3 a", false, Rejection{}},
		{"Count: m", false, Rejection{}},
		{"utf8 at offset 3 in plugins[3].name: bad: really", true, Rejection{Rule: "utf8", Detail: true, HasPath: true, Native: true, Offset: 3, Path: "plugins[3].name", Msg: "bad: really"}},
		{"trailing at offset 12: 1 byte after", true, Rejection{Rule: "trailing", Detail: true, HasPath: true, Native: true, Offset: 12, Msg: "1 byte after"}},
		{"utf8 at offset 3 in a b: m", false, Rejection{}},
		{"utf8 at offset x: m", false, Rejection{}},
		{"utf8 at offset 3 in : m", false, Rejection{}},
		{": m", false, Rejection{}},
	} {
		got, ok := ParseRejection(c.text)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseRejection(%q) = %+v, %v; want %+v, %v", c.text, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.text {
			t.Errorf("%+v formats as %q, not %q", got, got.String(), c.text)
		}
	}
}

// TestCheckRejection: the runner fails a wrong offset or path, and a short
// rejection from a language that must report them.
func TestCheckRejection(t *testing.T) {
	ref := &Rejection{Rule: "bool", Detail: true, HasPath: true, Offset: 5, Path: "a.b[2]", Msg: "m"}
	for _, c := range []struct {
		text   string
		detail Detail
		ok     bool
	}{
		{"bool @5 a.b[2]: x", DetailPath, true},
		{"bool: x", DetailNone, true},
		{"bool: x", DetailOffset, false},
		{"bool: x", DetailPath, false},
		{"bool @5: x", DetailOffset, true},
		{"bool @5: x", DetailPath, false},
		{"bool @4: x", DetailOffset, false},
		{"bool @4 a.b[2]: x", DetailNone, false},
		{"bool @5 a.b: x", DetailPath, false},
		{"bool @5 : x", DetailPath, false},
		{"enum @5 a.b[2]: x", DetailPath, false},
		{"garbage", DetailNone, false},
		{"bool at offset 5 in a.b[2]: x", DetailNative, true},
		{"bool at offset 5 in a.b[2]: x", DetailNone, true},
		{"bool @5 a.b[2]: x", DetailNative, false},
		{"bool at offset 5 in a.b: x", DetailNative, false},
		{"bool at offset 5: x", DetailPath, false},
		{"bool at offset 4 in a.b[2]: x", DetailNative, false},
	} {
		problem := checkRejection(c.text, ref, c.detail)
		if (problem == "") != c.ok {
			t.Errorf("checkRejection(%q, detail %v) = %q", c.text, c.detail, problem)
		}
	}
}

func TestParseStreamRejection(t *testing.T) {
	for _, c := range []struct {
		text, want string
		ok         bool
	}{
		{"message 2 at stream offset 40: truncated at offset 10 in message: cut", "truncated 2 50", true},
		{"message 0 at stream offset 0: schema at offset 16 in message: another version", "schema 0 16", true},
		{"message 3 at stream offset 100: trailing at offset 14: 1 byte", "trailing 3 114", true},
		{"message 3 at stream offset 100: trailing @14: 1 byte", "", false},
		{"utf8 3 114: m", "", false},
		{"message x at stream offset 1: utf8 at offset 1: m", "", false},
	} {
		got, _, ok := ParseStreamRejection(c.text)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseStreamRejection(%q) = %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		text   string
		detail Detail
		ok     bool
	}{
		{"message 2 at stream offset 40: utf8 at offset 10 in a: m", DetailNative, true},
		{"message 2 at stream offset 40: utf8 at offset 11 in a: m", DetailNative, false},
		{"message 2 at stream offset 40: bool at offset 10 in a: m", DetailNone, false},
		{"utf8 2 50: m", DetailPath, true},
		{"utf8 2 50: m", DetailNative, false},
		{"utf8 2 51: m", DetailPath, false},
	} {
		if problem := checkStreamRejection(c.text, "utf8 2 50", c.detail); (problem == "") != c.ok {
			t.Errorf("checkStreamRejection(%q, %v) = %q", c.text, c.detail, problem)
		}
	}
}
