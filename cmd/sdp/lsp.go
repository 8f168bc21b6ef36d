package main

import (
	"io"
	"os"
	"runtime/debug"

	"sdp/lsp"
)

const lspSynopsis = `sdp lsp

Runs the SDP language server: the Language Server Protocol over stdin and
stdout, for editors (docs/editors.md). It reports every problem sdp check
finds as you type, shows each field's wire offset and size on hover, and
goes to definitions, finds references, renames, lists symbols, completes
type names and formats.`

func cmdLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("lsp", lspSynopsis, stderr)
	fs.Bool("stdio", true, "talk over stdin and stdout (the only transport; accepted for clients that pass it)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	if os.Getenv("GOGC") == "" {
		// Every change parses and checks the whole file again, and the
		// garbage of one parse is several times the live heap: collecting
		// less often halves the latency of a 5,000-declaration schema.
		debug.SetGCPercent(lsp.GCPercent)
	}
	if err := lsp.Serve(stdin, stdout, lsp.Options{Version: version, Log: stderr}); err != nil {
		return &exitError{1, err.Error()}
	}
	return nil
}
