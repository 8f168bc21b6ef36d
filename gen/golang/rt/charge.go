// Charge: the memory total of rule 11, for schemas with charged arrays or optionals.

package rt

import (
	"strconv"
)

// sdp:copy (the generator copies what follows this line)

// chargeCount adds the n elements of the array whose count was just read,
// of nominal size each, to the memory total (rule 11) and returns n; when the
// total would exceed the memory limit it fails at the count and returns 0.
func (d *decoder) chargeCount(n int, each uint64) int {
	if n > 0 && !d.charge(d.off-4, uint64(n), each) {
		return 0
	}
	return n
}

// chargePresent charges the value of the present optional whose presence
// byte was just read, and reports whether decoding goes on.
func (d *decoder) chargePresent(each uint64) bool {
	return d.charge(d.off-1, 1, each)
}

func (d *decoder) charge(off int, n, each uint64) bool {
	if n > (d.memLimit-d.memUsed)/each {
		d.failAt(off, RuleMemory, strconv.FormatUint(n, 10)+" values of "+strconv.FormatUint(each, 10)+
			" bytes would exceed the memory limit of "+strconv.FormatUint(d.memLimit, 10)+" bytes")
		return false
	}
	d.memUsed += n * each
	return true
}
