// Command sdp compiles SDP schemas into encoders and decoders, validates
// schemas, and converts values between JSON and the SDP wire format.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is the toolkit's version; the wire format is SDP 0.2 compatible.
const version = "0.3.0"

const usage = `sdp — the Serial Data Protocol toolkit

Usage:
  sdp gen --lang LANG --out DIR [--package NAME] [--module] SCHEMA.sdp
  sdp check SCHEMA.sdp...
  sdp fmt [-w | --check] SCHEMA.sdp...
  sdp encode --schema SCHEMA.sdp (--type TYPE [--message] | --message | --stream [--hello]) [IN.json] > out.sdpb
  sdp decode --schema SCHEMA.sdp (--type TYPE [--message] | --message | --stream [--keep-going] [--max-size N] [--require-hello])
             [--max-depth N] [--memory-limit BYTES] [--annotate [--max-elems N | --full]] [IN.sdpb] > value.json
  sdp compat [--rename OLD=NEW]... [--json] OLD.sdp NEW.sdp
  sdp fingerprint SCHEMA.sdp [TYPE...]
  sdp layout [--json] SCHEMA.sdp [TYPE...]
  sdp lsp
  sdp version

Commands:
  gen      generate code for a schema (languages: %s)
  check    validate schemas; print every problem as file:line:col: message
  fmt      format schema files in the canonical layout
  encode   encode a JSON value (docs/json-mapping.md) to the wire format
  decode   decode wire-format bytes to JSON
  compat   compare two versions of a schema: which types changed their wire shape, and why
  fingerprint  print the 64-bit fingerprint of each type's wire shape
  layout   print each type's wire layout: field offsets and sizes, like pahole
  lsp      run the language server for editors (LSP over stdio; docs/editors.md)
  version  print the version

Examples:
  sdp gen --lang go --out ./plugins --package plugins plugins.sdp
  sdp check plugins.sdp
  sdp encode --schema plugins.sdp --type PluginRegistry < registry.json > registry.sdpb
  sdp decode --schema plugins.sdp --type PluginRegistry < registry.sdpb
  sdp decode --schema messages.sdp --stream --annotate < events.sdps
  sdp compat old/plugins.sdp plugins.sdp

Run 'sdp COMMAND --help' for a command's flags. Documentation: docs/ in the
source tree (schema language, wire format, JSON mapping, each language).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, usage, languageList())
		return 2
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "gen":
		err = cmdGen(rest, stdout, stderr)
	case "check":
		err = cmdCheck(rest, stdout, stderr)
	case "fmt":
		err = cmdFmt(rest, stdout, stderr)
	case "encode":
		err = cmdEncode(rest, stdin, stdout, stderr)
	case "decode":
		err = cmdDecode(rest, stdin, stdout, stderr)
	case "compat":
		err = cmdCompat(rest, stdout, stderr)
	case "fingerprint":
		err = cmdFingerprint(rest, stdout, stderr)
	case "layout":
		err = cmdLayout(rest, stdout, stderr)
	case "lsp":
		err = cmdLSP(rest, stdin, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "sdp %s (wire format SDP 0.2)\n", version)
	case "help", "--help", "-h":
		fmt.Fprintf(stdout, usage, languageList())
	default:
		fmt.Fprintf(stderr, "sdp: unknown command %q\n\n", cmd)
		fmt.Fprintf(stderr, usage, languageList())
		return 2
	}
	if err == errUsage {
		return 2
	}
	if e, ok := err.(*exitError); ok {
		if e.msg != "" {
			fmt.Fprintf(stderr, "sdp %s: %s\n", cmd, e.msg)
		}
		return e.code
	}
	if err != nil {
		fmt.Fprintf(stderr, "sdp %s: %v\n", cmd, err)
		return 1
	}
	return 0
}
