// Package conformance owns the language-neutral test corpus and the runner
// that checks a backend against it.
//
// The corpus (see docs/conformance.md):
//
//	schemas/<schema>.sdp             schemas covering every feature
//	cases/<schema>/<case>.json       {"type": "T", "value": <JSON mapping of a T>}
//	golden/<schema>/<case>.sdpb      the value encoded by the reference codec
//	golden/<schema>/<case>.hex       the same bytes, annotated field by field
//	invalid/<schema>.json            byte strings every decoder must reject
//	failures/<lang>.txt              cases a backend is known to fail (may only shrink)
//
// Every top-level case type is a struct, so a case can be named on the
// testee protocol by its message type id.
package conformance

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Dir is the corpus directory (this package's source directory).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// SchemaPath is the path of a corpus schema by base name ("plugins").
func SchemaPath(name string) string { return filepath.Join(Dir(), "schemas", name+".sdp") }

// SchemaNames lists the corpus schemas' base names, sorted.
func SchemaNames() ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(Dir(), "schemas", "*.sdp"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".sdp"))
	}
	sort.Strings(names)
	return names, nil
}

// Case is one valid value with its golden encoding.
type Case struct {
	Schema string          // schema base name
	Name   string          // case file name without .json
	Type   string          // top-level struct
	Value  json.RawMessage // the value in the JSON mapping
	Golden []byte          // nil if the golden file does not exist yet
}

// ID is the hierarchical case name used in reports and failure lists:
// "golden.plugins.registry_62".
func (c Case) ID() string { return "golden." + c.Schema + "." + c.Name }

// CasePath is where the case's JSON lives.
func (c Case) CasePath() string {
	return filepath.Join(Dir(), "cases", c.Schema, c.Name+".json")
}

// GoldenPath is where the case's golden bytes live.
func (c Case) GoldenPath() string {
	return filepath.Join(Dir(), "golden", c.Schema, c.Name+".sdpb")
}

// Invalid is a byte string that every decoder must reject.
type Invalid struct {
	Schema  string `json:"-"`
	Name    string `json:"name"`
	Type    string `json:"type"`
	Message bool   `json:"message"` // decode through the message dispatcher
	Hex     string `json:"hex"`
	Rule    string `json:"rule"` // which rule of docs/wire-format.md it breaks
	Why     string `json:"why"`
}

// ID is the hierarchical name: "invalid.primitives.truncated_u32".
func (v Invalid) ID() string { return "invalid." + v.Schema + "." + v.Name }

// Bytes decodes the hex string (spaces allowed).
func (v Invalid) Bytes() ([]byte, error) {
	return hex.DecodeString(strings.Join(strings.Fields(v.Hex), ""))
}

// Cases loads every valid case of a schema, sorted by name.
func Cases(schemaName string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(Dir(), "cases", schemaName, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Case
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if doc.Type == "" || doc.Value == nil {
			return nil, fmt.Errorf("%s: a case needs \"type\" and \"value\"", p)
		}
		c := Case{Schema: schemaName, Name: strings.TrimSuffix(filepath.Base(p), ".json"), Type: doc.Type, Value: doc.Value}
		if g, err := os.ReadFile(c.GoldenPath()); err == nil {
			c.Golden = g
		} else if !os.IsNotExist(err) {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Invalids loads a schema's invalid vectors (none if it has no file).
func Invalids(schemaName string) ([]Invalid, error) {
	p := filepath.Join(Dir(), "invalid", schemaName+".json")
	raw, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Invalid
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	seen := map[string]bool{}
	for i := range out {
		out[i].Schema = schemaName
		if seen[out[i].Name] {
			return nil, fmt.Errorf("%s: duplicate invalid vector %q", p, out[i].Name)
		}
		seen[out[i].Name] = true
		if _, err := out[i].Bytes(); err != nil {
			return nil, fmt.Errorf("%s: %s: bad hex: %v", p, out[i].Name, err)
		}
	}
	return out, nil
}

// RegressPaths lists the regression schemas of regress/ (minimal schemas of
// bugs the random-schema suite found), sorted.
func RegressPaths() ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(Dir(), "regress", "*.sdp"))
	sort.Strings(paths)
	return paths, err
}
