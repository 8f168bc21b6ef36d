package schema

import (
	"fmt"
	"math/rand"
	"testing"
)

// naiveRefine is refinement round by round: the specification refine
// must meet, as a partition.
func naiveRefine(initial []int, succ [][]int) []int {
	cls := append([]int(nil), initial...)
	n := -1
	for {
		ids := map[string]int{}
		next := make([]int, len(cls))
		for x := range cls {
			k := fmt.Sprint(cls[x], " ")
			for _, y := range succ[x] {
				k += fmt.Sprint(cls[y], ",")
			}
			if _, ok := ids[k]; !ok {
				ids[k] = len(ids)
			}
			next[x] = ids[k]
		}
		cls = next
		if len(ids) == n {
			return cls
		}
		n = len(ids)
	}
}

// samePartition reports whether a and b put the same nodes together.
func samePartition(a, b []int) bool {
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if x, ok := ba[b[i]]; ok && x != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// TestRefineRandomGraphs compares refine with naiveRefine on random graphs
// with few labels (so much merging) and one to three successors per node.
func TestRefineRandomGraphs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for c := 0; c < 3000; c++ {
		n := 1 + r.Intn(30)
		nlabels := 1 + r.Intn(3)
		deg := make([]int, nlabels) // nodes of a label have its number of successors
		for l := range deg {
			deg[l] = r.Intn(4)
		}
		initial := make([]int, n)
		succ := make([][]int, n)
		used := map[int]bool{}
		for x := range initial {
			initial[x] = r.Intn(nlabels)
			used[initial[x]] = true
			for a := 0; a < deg[initial[x]]; a++ {
				succ[x] = append(succ[x], r.Intn(n))
			}
		}
		// refine wants labels 0..k-1, all used.
		renum := map[int]int{}
		for l := 0; l < nlabels; l++ {
			if used[l] {
				renum[l] = len(renum)
			}
		}
		for x := range initial {
			initial[x] = renum[initial[x]]
		}
		got := refine(append([]int(nil), initial...), len(renum), succ)
		want := naiveRefine(initial, succ)
		if !samePartition(got, want) {
			t.Fatalf("case %d: refine %v, want the partition of %v\ninitial %v\nsucc %v", c, got, want, initial, succ)
		}
	}
}
