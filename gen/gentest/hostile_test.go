package gentest

import (
	"errors"
	"testing"

	"sdp/codec"

	"sdp/conformance"
	"sdp/schema"
)

// TestHostileReference runs RunHostile against the reference codec, which
// defines rule 11: the chain decodes, the arrays of absent values do not.
func TestHostileReference(t *testing.T) {
	s, err := schema.Load(conformance.SchemaPath("hostile"))
	if err != nil {
		t.Fatal(err)
	}
	RunHostile(t, "reference", conformance.ReferenceTestee(s))
}

// TestHostileInputs checks the inputs' shapes against the reference codec
// with a memory limit raised past them: the arrays are valid data, refused
// only by the default limit.
func TestHostileInputs(t *testing.T) {
	if got := len(HostileChain(2)); got != 2*(4096*8+1) {
		t.Errorf("a chain of 2 is %d bytes", got)
	}
	s, err := schema.Load(conformance.SchemaPath("hostile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint16{HostileHolderID, HostileEventsID, HostileChainID} {
		if s.StructByID(id) == nil {
			t.Fatalf("hostile.sdp has no struct with id %d", id)
		}
	}
	for _, id := range []uint16{HostileHolderID, HostileEventsID} {
		name := s.StructByID(id).Name
		in := HostileArray(5000)
		var de *codec.DecodeError
		if _, err := codec.Decode(s, name, in, codec.Options{}); !errors.As(err, &de) || de.Rule != codec.RuleMemory {
			t.Errorf("%s of 5000 absent values under the default limit: %v, want rule memory", name, err)
		}
		if _, err := codec.Decode(s, name, in, codec.Options{MemoryLimit: 1 << 40}); err != nil {
			t.Errorf("%s of 5000 absent values under a raised limit: %v", name, err)
		}
	}
}
