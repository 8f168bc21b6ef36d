package schema

import (
	"sort"
	"strings"
)

// Diagnostic is one problem in a schema, with where it is and, when there is
// one, a hint at the fix.
type Diagnostic struct {
	Pos  Pos
	Msg  string
	Hint string
}

func (d Diagnostic) String() string {
	s := d.Pos.String() + ": " + d.Msg
	if d.Hint != "" {
		s += " (" + d.Hint + ")"
	}
	return s
}

// ErrorList is every problem found in a schema, sorted by position. It is
// the error Parse and Load return.
type ErrorList []Diagnostic

func (l *ErrorList) add(p Pos, msg, hint string) {
	*l = append(*l, Diagnostic{Pos: p, Msg: msg, Hint: hint})
}

func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, d := range l {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

func (l ErrorList) sorted() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}

// closest returns the candidate nearest to name by edit distance, or "" if
// none is near enough to be a likely typo.
func closest(name string, candidates []string) string {
	best, bestD := "", len(name)/2+2
	for _, c := range candidates {
		if len(c)-len(name) >= bestD || len(name)-len(c) >= bestD {
			continue // the distance is at least the difference in length
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min3(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func min3(a, b, c int) int {
	if b < a {
		a = b
	}
	if c < a {
		a = c
	}
	return a
}
