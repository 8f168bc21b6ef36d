package c

import (
	"os"
	"sync"
	"testing"
)

var (
	scratchOnce sync.Once
	scratchDir  string
	scratchErr  error
)

// scratch is a directory shared by the tests of this package (built test
// programs are reused between tests); TestMain removes it.
func scratch(t testing.TB) string {
	scratchOnce.Do(func() { scratchDir, scratchErr = os.MkdirTemp("", "sdp-c-test-") })
	if scratchErr != nil {
		t.Fatal(scratchErr)
	}
	return scratchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if scratchDir != "" {
		os.RemoveAll(scratchDir)
	}
	os.Exit(code)
}
