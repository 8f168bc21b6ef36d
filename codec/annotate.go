package codec

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"sdp/schema"
)

// Layout of an annotation:
//
//	# PluginRegistry (plugins.sdp): 1234 bytes
//	     0  02000000                          plugins: count = 2
//	     4  05000000                          plugins[0].name: length = 5
//	     8  53796e7468                        plugins[0].name = "Synth"
const (
	bytesPerLine = 16 // hex bytes on one line
	maxByteLines = 4  // lines of one string or byte array before it is cut
	maxStrRunes  = 48 // characters of a string shown as its value
	scalarElems  = 16 // elements of a scalar array annotated before a summary
	otherElems   = 8  // elements of other arrays annotated before a summary
)

// annotatedElems is how many elements of an array are annotated one by one.
func (a *annotator) annotatedElems(elem *schema.Type) int {
	switch {
	case a.full:
		return math.MaxInt
	case a.elems > 0:
		return a.elems
	case elem.Kind.IsScalar() || elem.Kind == schema.EnumRef:
		return scalarElems
	}
	return otherElems
}

type annotator struct {
	b         strings.Builder
	offWidth  int
	suspended int  // > 0 while inside the elements of an array that are summarized
	skipFrom  int  // where the summarized elements start
	elems     int  // Options.AnnotateElems
	full      bool // Options.AnnotateFull
}

func newAnnotator(what string, size int, opt Options) *annotator {
	a := &annotator{offWidth: len(strconv.Itoa(size)), elems: opt.AnnotateElems, full: opt.AnnotateFull}
	if a.offWidth < 6 {
		a.offWidth = 6
	}
	fmt.Fprintf(&a.b, "# %s: %s\n", what, plural(size, "byte", "bytes"))
	return a
}

// line describes the bytes b at offset off: path and text, on as many lines
// as the bytes need (up to maxByteLines, unless full).
func (a *annotator) line(off int, b []byte, path, text string) {
	if a.suspended > 0 {
		return
	}
	if path == "" {
		path = "value"
	}
	if strings.HasPrefix(text, "= ") {
		path += " " + text
	} else {
		path += ": " + text
	}
	first := b
	if len(first) > bytesPerLine {
		first = first[:bytesPerLine]
	}
	a.row(off, hex.EncodeToString(first), path)
	for i, lines := bytesPerLine, 1; i < len(b); i, lines = i+bytesPerLine, lines+1 {
		if lines == maxByteLines && !a.full {
			a.row(off+i, "...", fmt.Sprintf("(%s)", plural(len(b)-i, "more byte", "more bytes")))
			break
		}
		end := i + bytesPerLine
		if end > len(b) {
			end = len(b)
		}
		a.row(off+i, hex.EncodeToString(b[i:end]), "")
	}
}

func (a *annotator) row(off int, hexText, text string) {
	if text == "" {
		fmt.Fprintf(&a.b, "%*d  %s\n", a.offWidth, off, hexText)
		return
	}
	fmt.Fprintf(&a.b, "%*d  %-*s  %s\n", a.offWidth, off, 2*bytesPerLine, hexText, text)
}

// suspend stops annotating at offset off (the rest of a long array).
func (a *annotator) suspend(off int) {
	if a.suspended == 0 {
		a.skipFrom = off
	}
	a.suspended++
}

// resume annotates again from offset off, after a summary of what was skipped.
func (a *annotator) resume(off int, summary string) {
	a.suspended--
	if a.suspended == 0 {
		a.row(a.skipFrom, "...", fmt.Sprintf("%s (%s)", summary, plural(off-a.skipFrom, "byte", "bytes")))
	}
}

// finish returns the annotation, with a last line for a decode error.
func (a *annotator) finish(err error) string {
	if err != nil {
		if de, ok := err.(*DecodeError); ok {
			fmt.Fprintf(&a.b, "%*d  error: %s\n", a.offWidth, de.Offset, de.Error())
		} else {
			fmt.Fprintf(&a.b, "error: %v\n", err)
		}
	}
	return a.b.String()
}

// shortString quotes valid UTF-8 text for an annotation, cut after
// maxStrRunes characters unless full.
func (a *annotator) shortString(s []byte) string {
	n := utf8.RuneCount(s)
	if n <= maxStrRunes || a.full {
		return string(appendJSONString(nil, string(s)))
	}
	cut := 0
	for i := 0; i < maxStrRunes; i++ {
		_, size := utf8.DecodeRune(s[cut:])
		cut += size
	}
	return fmt.Sprintf("%s... (%d characters)", appendJSONString(nil, string(s[:cut])), n)
}

// plural is "1 byte" or "2 bytes": n and the form of the words that agrees
// with it (one for 1, many otherwise), for every count in a message.
func plural[T ~int | ~uint32 | ~uint64](n T, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
