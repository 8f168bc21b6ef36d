//go:build unix && !linux

package conformance

// maxrssBytes converts getrusage's ru_maxrss, in bytes on macOS and the BSDs.
func maxrssBytes(v int64) int64 { return v }
