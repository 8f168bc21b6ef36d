package main

import (
	"io"

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
	if err := lsp.Serve(stdin, stdout, lsp.Options{Version: version, Log: stderr}); err != nil {
		return &exitError{1, err.Error()}
	}
	return nil
}
