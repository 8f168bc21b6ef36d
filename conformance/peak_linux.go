//go:build linux

package conformance

// maxrssBytes converts getrusage's ru_maxrss, in KiB on Linux.
func maxrssBytes(v int64) int64 { return v * 1024 }
