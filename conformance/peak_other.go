//go:build !unix

package conformance

// PeakRSS reports no peak memory on systems without getrusage.
func PeakRSS(t Testee) (bytes int64, ok bool) { return 0, false }
