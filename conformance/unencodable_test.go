package conformance

import (
	"testing"

	"sdp/schema"
)

func TestUnencodables(t *testing.T) {
	s, err := schema.Load(UnencodableSchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[Change]int{}
	for _, u := range cases {
		kinds[u.Change]++
		// The reference names the changed value itself.
		if u.Path != u.TargetText() {
			t.Errorf("%s: the reference's path is %q, the target %q", u.Name, u.Path, u.TargetText())
		}
	}
	for ch := range ChangeRule {
		if kinds[ch] == 0 {
			t.Errorf("no case makes change %s", ch)
		}
	}
	t.Logf("%d cases", len(cases))
}
