package lsp

import "syscall"

// cpuTime is the process's CPU time (user and system) in nanoseconds, for
// benchmarks on a loaded machine, where wall time says little.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
