package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTextMateGrammar checks editors/sdp.tmLanguage.json: valid JSON, every
// include names a rule of its repository, and the scopes docs/editors.md
// promises are there. Patterns that RE2 can read (no look-around) must
// compile and match what they are for.
func TestTextMateGrammar(t *testing.T) {
	path := filepath.Join("..", "editors", "sdp.tmLanguage.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Fatalf("%s is not valid JSON", path)
	}
	var g struct {
		ScopeName  string                     `json:"scopeName"`
		FileTypes  []string                   `json:"fileTypes"`
		Patterns   []map[string]interface{}   `json:"patterns"`
		Repository map[string]json.RawMessage `json:"repository"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.ScopeName != "source.sdp" || len(g.FileTypes) != 1 || g.FileTypes[0] != "sdp" {
		t.Errorf("scopeName %q, fileTypes %v", g.ScopeName, g.FileTypes)
	}
	for _, m := range regexp.MustCompile(`"include":\s*"#([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		if _, ok := g.Repository[m[1]]; !ok {
			t.Errorf("include #%s has no rule", m[1])
		}
	}
	for _, scope := range []string{"keyword.declaration.sdp", "entity.name.type.sdp", "support.type.primitive.sdp",
		"constant.numeric.integer", "comment.line.double-slash.sdp", "comment.block.sdp",
		"comment.line.documentation.sdp", "meta.attribute.sdp", "entity.name.function.attribute.sdp"} {
		if !strings.Contains(string(b), `"`+scope) {
			t.Errorf("no scope %s", scope)
		}
	}
	// Every "match" that RE2 compiles (all but those with look-around) must
	// compile, and each rule with a sample must match it.
	samples := map[string]string{
		"numbers":   "0x1F",
		"attribute": "@id(42)",
		"members":   "name: str",
		"keywords":  "union",
		"types":     "[]Plugin",
		"comments":  "/// doc",
	}
	compiled := map[string][]*regexp.Regexp{}
	var walk func(v interface{}, rule string)
	walk = func(v interface{}, rule string) {
		switch v := v.(type) {
		case map[string]interface{}:
			if m, ok := v["match"].(string); ok {
				re, err := regexp.Compile(m)
				switch {
				case err == nil:
					compiled[rule] = append(compiled[rule], re)
				case !strings.Contains(m, "(?=") && !strings.Contains(m, "(?!"):
					t.Errorf("rule %s: %q: %v", rule, m, err)
				}
			}
			for _, x := range v {
				walk(x, rule)
			}
		case []interface{}:
			for _, x := range v {
				walk(x, rule)
			}
		}
	}
	for name, raw := range g.Repository {
		var v interface{}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		walk(v, name)
	}
	for rule, sample := range samples {
		matched := false
		for _, re := range compiled[rule] {
			matched = matched || re.MatchString(sample)
		}
		if !matched {
			t.Errorf("no pattern of rule %s matches %q", rule, sample)
		}
	}
}
