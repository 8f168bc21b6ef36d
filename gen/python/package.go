package python

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("python", Generate) }

//go:embed runtime.py
var runtime string

// PackageName is the Python package name for opt and s: the --package
// option or the schema name, made an identifier.
func PackageName(s *schema.Schema, opt gen.Options) string {
	var b strings.Builder
	for _, r := range opt.PackageName(s) {
		if r == '_' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || (n[0] >= '0' && n[0] <= '9') || keywords[n] {
		n = "sdp_" + n
	}
	return n
}

// Generate writes pyproject.toml, <package>/__init__.py and <package>/py.typed.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	pkg := PackageName(s, opt)
	g := &generator{s: s, n: newNames(s), p: emit.New("    "), done: map[string]bool{}, aliases: map[string]bool{}, runFormats: map[string]string{},
		plan: plan.Build(s)}
	src := g.module()
	toml := fmt.Sprintf(`# %s

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = %q
version = "0.1.0"
description = "SDP encoders and decoders generated from %s"
requires-python = ">=3.9"

[tool.setuptools]
packages = [%q]

[tool.setuptools.package-data]
%s = ["py.typed", "_sdp_accel.c"]
`, gen.Header(s), strings.ReplaceAll(pkg, "_", "-"), s.Name+".sdp", pkg, pkg)
	setup := fmt.Sprintf(`# %s
"""Builds the package's C accelerator (%s._sdp_accel) where a C compiler and
Python's headers are present; without them, or with SDP_PURE_PYTHON=1, the
package installs as pure Python (%s.IMPLEMENTATION says which runs)."""

import os

from setuptools import Extension, setup

ext_modules = []
if os.environ.get("SDP_PURE_PYTHON", "") != "1":
    # optional: a compiler error is a warning, and the package pure Python.
    ext_modules.append(Extension(%q, [%q], optional=True))
setup(ext_modules=ext_modules)
`, gen.Header(s), pkg, pkg, pkg+"._sdp_accel", pkg+"/_sdp_accel.c")
	return []gen.File{
		{Path: "pyproject.toml", Content: []byte(toml)},
		{Path: "setup.py", Content: []byte(setup)},
		{Path: pkg + "/__init__.py", Content: src},
		{Path: pkg + "/_sdp_accel.c", Content: g.accelSource()},
		{Path: pkg + "/py.typed", Content: []byte{}},
	}, nil
}
