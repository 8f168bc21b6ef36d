//go:build unix

package conformance

import "syscall"

// PeakRSS is the peak resident memory, in bytes, of a testee process that
// has been closed; ok is false for in-process testees and on systems that do
// not report it.
func PeakRSS(t Testee) (bytes int64, ok bool) {
	p, isProcess := t.(*process)
	if !isProcess || p.cmd.ProcessState == nil {
		return 0, false
	}
	ru, isRusage := p.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !isRusage {
		return 0, false
	}
	return maxrssBytes(int64(ru.Maxrss)), true
}
