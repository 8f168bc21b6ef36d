// Package java is the Java backend of sdp: `sdp gen --lang java` writes
// one Java package per schema, for Java 11 and later (servers and Android),
// that needs nothing but the JDK.
//
// The generated package holds one file per declaration (a final class per
// struct, a Java enum per enum, an abstract class with one nested final
// class per variant per union), SdpCodec.java (the size, encode and decode
// of every type, printed from the codec plan), Messages.java (the message
// dispatcher, type ids and the hello), and the runtime (runtime/*.java,
// copied with the package's name). A pom.xml and a build.gradle sit at the
// root, the sources under src/main/java. See docs/java.md.
package java

import (
	"embed"
	"fmt"
	"sort"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("java", Generate) }

//go:embed runtime/*.java
var runtimeFS embed.FS

// runtimeFiles are the runtime sources copied into every package
// (runtime/Messages.java only stands in for the generated Messages).
var runtimeFiles = []string{"DecodeException", "DecodeOptions", "EncodeException", "MessageReader",
	"MessageWriter", "Sdp", "SdpMessage", "SdpReader", "SdpWriter", "StreamException"}

// SourceDir is where the sources go below the output directory.
const SourceDir = "src/main/java/"

type generator struct {
	s     *schema.Schema
	pkg   string
	names *names
	plan  *plan.Plan
}

// Generate is the Java backend's gen.Generator.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	pkg := packageName(s, opt.Package)
	g := &generator{s: s, pkg: pkg, names: newNames(s, pkg), plan: plan.Build(s)}
	dir := SourceDir + strings.ReplaceAll(pkg, ".", "/") + "/"
	var files []gen.File
	add := func(name string, body func(p *emit.Printer)) {
		p := emit.New("    ")
		p.P("// ", gen.Header(s))
		p.P()
		p.P("package ", pkg, ";")
		p.P()
		body(p)
		files = append(files, gen.File{Path: dir + name + ".java", Content: p.Bytes()})
	}
	for _, d := range g.plan.Decls {
		switch {
		case d.Struct != nil:
			add(g.names.decl[d.Decl], func(p *emit.Printer) { g.structClass(p, d) })
		case d.Enum != nil:
			add(g.names.decl[d.Decl], func(p *emit.Printer) { g.enumClass(p, d) })
		case d.Union != nil:
			add(g.names.decl[d.Decl], func(p *emit.Printer) { g.unionClass(p, d) })
		}
	}
	add("SdpCodec", g.codecClass)
	add("Messages", g.messagesClass)
	for _, r := range runtimeFiles {
		src, err := runtimeFS.ReadFile("runtime/" + r + ".java")
		if err != nil {
			return nil, err
		}
		text := strings.Replace(string(src), "package sdp.runtime;", "package "+pkg+";", 1)
		files = append(files, gen.File{Path: dir + r + ".java",
			Content: []byte("// " + gen.Header(s) + "\n\n" + text)})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	files = append([]gen.File{
		{Path: "build.gradle", Content: []byte(g.gradle())},
		{Path: "pom.xml", Content: []byte(g.pom())},
	}, files...)
	return files, nil
}

// doc prints doc lines as a Javadoc comment, escaped: nothing in them can
// end the comment, start a tag, make HTML, or be a unicode escape (which
// Java reads even in comments).
func doc(p *emit.Printer, lines []string) {
	if len(lines) == 0 {
		return
	}
	p.P("/**")
	for _, l := range lines {
		for _, l := range strings.Split(strings.ReplaceAll(l, "\r", ""), "\n") {
			l = javadocEscape(l)
			if l == "" {
				p.P(" *")
			} else {
				p.P(" * ", l)
			}
		}
	}
	p.P(" */")
}

func javadocEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "&#64;", "\\", "&#92;",
		"*/", "*&#47;", "{", "&#123;", "}", "&#125;")
	return r.Replace(s)
}

// javaString is a Java string literal of s (ASCII, escaped).
func javaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		default:
			// Never a \u escape: Java reads those before lexing.
			fmt.Fprintf(&b, "\\%03o", r&0xff)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (g *generator) pom() string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ` + gen.Header(g.s) + ` -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>` + g.pkg + `</groupId>
  <artifactId>` + strings.ReplaceAll(g.pkg, ".", "-") + `</artifactId>
  <version>1.0.0</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
</project>
`
}

func (g *generator) gradle() string {
	return `// ` + gen.Header(g.s) + `
plugins {
    id 'java-library'
}

group = '` + g.pkg + `'
version = '1.0.0'

tasks.withType(JavaCompile).configureEach {
    options.release = 11
    options.encoding = 'UTF-8'
}
`
}
