package schema

import (
	"os"
	"path/filepath"
	"strings"
)

// Load reads, parses and validates the schema file at path.
func Load(path string) (*Schema, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses and validates schema source. name is used in positions and,
// without directory and extension, as the schema's Name. The error, if any,
// is an ErrorList holding every problem found.
func Parse(name string, src []byte) (*Schema, error) {
	var errs ErrorList
	f := parse(name, src, &errs)
	s := check(name, f, &errs)
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return s, nil
}

func baseName(path string) string {
	b := filepath.Base(path)
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}
