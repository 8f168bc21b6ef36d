package gentest

import (
	"bytes"
	"encoding/binary"
	"testing"

	"sdp/conformance"
)

// The hostile inputs of issue #13, for conformance/schemas/hostile.sdp.
// Every backend's TestHostile sends them to a testee of that schema with
// RunHostile; they are too large for the corpus's golden files.

// Message type ids of hostile.sdp's structs (their positions).
const (
	HostileHolderID = 2
	HostileEventsID = 3
	HostileChainID  = 6
)

// HostileChainLevels is the length of the chain RunHostile decodes: 60
// values of 32 KiB, about 1.9 MiB, which a decoder that builds each level's
// value on the stack cannot decode on a 512 KiB stack.
const HostileChainLevels = 60

// HostileStack is the stack size, in bytes, of the thread on which a testee
// must serve RunHostile's requests.
const HostileStack = 512 << 10

// HostileAbsent is how many absent elements the memory inputs hold: 20 MB
// of input that would take 10 GB in arrays of inline optionals or unions.
const HostileAbsent = 20_000_000

// HostileChain encodes a Chain of the given number of levels: each level's
// data counts up from its level times 4096, the last level's next is absent.
func HostileChain(levels int) []byte {
	b := make([]byte, 0, levels*(4096*8+1))
	for l := 0; l < levels; l++ {
		for i := 0; i < 4096; i++ {
			b = binary.LittleEndian.AppendUint64(b, uint64(l*4096+i))
		}
		if l+1 < levels {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// HostileArray encodes a Holder or an Events of n zero bytes after the
// count: n absent ?Big or n unit variants of Wide.
func HostileArray(n int) []byte {
	b := make([]byte, 4+n)
	binary.LittleEndian.PutUint32(b, uint32(n))
	return b
}

// HostilePeakLimit is the most resident memory a testee process may reach
// while serving RunHostile: 16 times the largest input plus 128 MiB for the
// runtime and the testee's copies of requests and responses. Before rule 11
// the C and C++ decoders reached 10 GB on the 20 MB input.
const HostilePeakLimit = 16*(HostileAbsent+4) + 128<<20

// RunHostile sends the hostile inputs to a testee serving hostile.sdp on a
// thread with a HostileStack stack: the 60-level chain must decode and
// re-encode byte for byte, the 20 MB arrays of absent optionals and unit
// variants must be rejected with rule memory before anything is allocated.
// It closes the testee and, for a testee process, logs its peak resident
// memory and fails above HostilePeakLimit.
func RunHostile(t *testing.T, lang string, testee conformance.Testee) {
	t.Helper()
	chain := HostileChain(HostileChainLevels)
	status, out, err := testee.Do(conformance.OpRoundtrip, HostileChainID, chain)
	switch {
	case err != nil:
		t.Fatalf("%s: a chain of %d 32 KiB values (%d bytes): %v", lang, HostileChainLevels, len(chain), err)
	case status != conformance.StatusOK:
		t.Errorf("%s: a chain of %d 32 KiB values: status %d: %s", lang, HostileChainLevels, status, out)
	case !bytes.Equal(out, chain):
		t.Errorf("%s: a chain of %d 32 KiB values re-encodes to %d other bytes", lang, HostileChainLevels, len(out))
	}
	for _, c := range []struct {
		what string
		id   uint16
	}{{"Holder of absent ?Big", HostileHolderID}, {"Events of unit variants", HostileEventsID}} {
		status, out, err := testee.Do(conformance.OpRoundtrip, c.id, HostileArray(HostileAbsent))
		switch {
		case err != nil:
			t.Fatalf("%s: %s, %d elements: %v", lang, c.what, HostileAbsent, err)
		case status != conformance.StatusRejected || !isRule(out, "memory"):
			t.Errorf("%s: %s, %d elements: status %d (%.200s), want rejected for rule memory", lang, c.what, HostileAbsent, status, out)
		}
	}
	if err := testee.Close(); err != nil {
		t.Errorf("%s: testee exit: %v", lang, err)
	}
	if peak, ok := conformance.PeakRSS(testee); ok {
		t.Logf("%s: peak resident memory %.1f MiB serving inputs of up to %.1f MiB (limit %.0f MiB)",
			lang, float64(peak)/(1<<20), float64(HostileAbsent+4)/(1<<20), float64(HostilePeakLimit)/(1<<20))
		if peak > HostilePeakLimit {
			t.Errorf("%s: peak resident memory %d bytes, over the limit of %d", lang, peak, HostilePeakLimit)
		}
	}
}

// isRule reports whether a rejection text is for rule, in either form of the
// testee protocol.
func isRule(text []byte, rule string) bool {
	r, ok := conformance.ParseRejection(string(text))
	return ok && r.Rule == rule
}
