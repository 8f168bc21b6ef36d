package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"sdp/codec"
	"sdp/schema"
)

const encodeSynopsis = `sdp encode --schema SCHEMA.sdp (--type TYPE [--message] | --message | --stream [--hello]) [VALUE.json] > value.sdpb

Reads a value in the JSON mapping (docs/json-mapping.md) from VALUE.json or
stdin and writes its wire encoding to stdout. With --message the output is a
message (10-byte header, then the value); --type may then be left out if the
input is {"type": "TYPE", "value": {...}}. With --stream the input is JSON
lines, one such object per line (decode --stream's output is accepted), and
the output a stream of messages; --hello starts it with a hello, the schema
check of docs/wire-format.md (a line {"hello": true} writes one too).

Examples:
  sdp encode --schema plugins.sdp --type PluginRegistry < registry.json > registry.sdpb
  echo '{"x": 3.14, "y": 2.71}' | sdp encode --schema messages.sdp --type Point --message | xxd
  sdp encode --schema messages.sdp --stream --hello < events.jsonl > events.sdps`

const decodeSynopsis = `sdp decode --schema SCHEMA.sdp (--type TYPE [--message] | --message | --stream [--keep-going] [--max-size N] [--require-hello]) [--max-depth N] [--memory-limit BYTES] [--annotate [--max-elems N | --full]] [VALUE.sdpb] > value.json

Reads wire-format bytes from VALUE.sdpb or stdin, checks them strictly
(docs/wire-format.md) and writes the value as JSON. With --message the input is
a message; without --type any struct of the schema is accepted and the output
is {"type": "TYPE", "value": {...}}. --annotate prints the bytes field by field
instead (offset, hex, path = value); it shows the first elements of a long
array (16 of numbers, bools and enums, 8 of others) and summarizes the rest
in one line, and cuts long strings and byte arrays: --max-elems N shows N
elements of each array, --full every element and every byte. --max-depth and
--memory-limit set the limits of rules 9 and 11 (docs/wire-format.md).

With --stream the input is a stream of messages, and the output one JSON line
per message: {"index": N, "offset": BYTES, "type": "TYPE", "value": {...}}
(with --annotate: each message's annotated bytes). A bad message is reported
with its index and stream offset; decoding stops there, or with --keep-going
goes on after a bad payload whose header is intact. --type then restricts the
messages to one struct. A hello at the start of the stream is checked against
the schema (a line {"index": 0, "offset": 0, "hello": true} when it agrees;
rule schema, naming the type, when the writer used another version of it);
--require-hello refuses a stream that does not start with one.

Examples:
  sdp decode --schema plugins.sdp --type PluginRegistry < registry.sdpb
  sdp decode --schema messages.sdp --message --annotate < point.msg
  sdp decode --schema arrays.sdp --type U32Array --annotate --full < values.sdpb
  sdp decode --schema messages.sdp --stream < events.sdps | grep '"index": 5,'
  sdp decode --schema messages.sdp --stream --keep-going --annotate events.sdps`

func cmdEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("encode", encodeSynopsis, stderr)
	schemaPath := fs.String("schema", "", "the schema file (required)")
	typ := fs.String("type", "", "the type of the value (required unless --message)")
	message := fs.Bool("message", false, "write a message: header (magic, type id, length), then the value")
	stream := fs.Bool("stream", false, `read JSON lines {"type": "Name", "value": {...}} and write a stream of messages`)
	hello := fs.Bool("hello", false, "with --stream: start the stream with a hello (the schema's fingerprints)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *schemaPath == "" || (*typ == "" && !*message && !*stream) || len(pos) > 1 {
		fs.Usage()
		return errUsage
	}
	s, err := schema.Load(*schemaPath)
	if err != nil {
		return err
	}
	in, err := readInput(pos, stdin)
	if err != nil {
		return err
	}
	if *stream {
		return encodeStream(s, in, *hello, stdout)
	}
	var out []byte
	switch {
	case *message && *typ == "":
		_, out, err = codec.EncodeEnvelope(s, in)
	case *message:
		out, err = codec.EncodeMessage(s, *typ, in)
	default:
		out, err = codec.Encode(s, *typ, in)
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

func cmdDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("decode", decodeSynopsis, stderr)
	schemaPath := fs.String("schema", "", "the schema file (required)")
	typ := fs.String("type", "", "the type of the value (required unless --message)")
	message := fs.Bool("message", false, "the input is a message: header (magic, type id, length), then the value")
	maxDepth := fs.Int("max-depth", codec.DefaultMaxDepth, "nesting limit: the top-level struct is at depth 1 (0: the default, 64)")
	memoryLimit := fs.Uint64("memory-limit", 0, "the memory limit of rule 11 in bytes of nominal size (0: 32 × the input's length + 1 MiB)")
	annotate := fs.Bool("annotate", false, "print an annotated hex dump instead of JSON")
	stream := fs.Bool("stream", false, `the input is a stream of messages: write one line {"index", "offset", "type", "value"} per message`)
	keepGoing := fs.Bool("keep-going", false, "with --stream: report a bad payload whose header is intact and go on with the next message")
	maxSize := fs.Uint("max-size", 0, "with --stream: the largest payload length accepted (0: the default, 64 MiB; 4294967295 accepts every payload)")
	requireHello := fs.Bool("require-hello", false, "with --stream: refuse a stream that does not start with a hello")
	maxElems := fs.Int("max-elems", 0, "with --annotate: annotate the first N elements of each array, then summarize the rest (0: 16 of numbers, bools and enums, 8 of others)")
	full := fs.Bool("full", false, "with --annotate: annotate every element of every array and every byte of long strings and byte arrays")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *schemaPath == "" || (*typ == "" && !*message && !*stream) || len(pos) > 1 {
		fs.Usage()
		return errUsage
	}
	switch {
	case *maxElems < 0:
		return fmt.Errorf("--max-elems must be at least 0")
	case (*maxElems != 0 || *full) && !*annotate:
		return fmt.Errorf("--max-elems and --full need --annotate")
	case *maxElems != 0 && *full:
		return fmt.Errorf("--max-elems and --full exclude each other (--full shows every element)")
	}
	s, err := schema.Load(*schemaPath)
	if err != nil {
		return err
	}
	in, err := readInput(pos, stdin)
	if err != nil {
		return err
	}
	opt := codec.Options{MaxDepth: *maxDepth, MemoryLimit: *memoryLimit, AnnotateElems: *maxElems, AnnotateFull: *full}
	if *stream {
		return decodeStream(s, in, *typ, codec.StreamOptions{Options: opt, MaxSize: uint32(*maxSize), RequireHello: *requireHello}, *annotate, *keepGoing, stdout, stderr)
	}
	if *annotate {
		var text string
		if *message {
			text, err = codec.AnnotateMessageWith(s, *typ, in, opt)
		} else {
			text, err = codec.AnnotateWith(s, *typ, in, opt)
		}
		if _, werr := io.WriteString(stdout, text); werr != nil && err == nil {
			err = werr
		}
		return err
	}
	var out []byte
	switch {
	case *message && *typ == "":
		var name string
		name, out, err = codec.DecodeMessage(s, in, opt)
		if err == nil {
			out = codec.EnvelopeJSON(name, out)
		}
	case *message:
		out, err = codec.DecodeMessageAs(s, *typ, in, opt)
	default:
		out, err = codec.Decode(s, *typ, in, opt)
		if err != nil && bytes.HasPrefix(in, []byte(codec.Magic)) {
			err = fmt.Errorf("%v\n(the input starts with the message magic %q: decode it with --message, or --stream for several messages)", err, codec.Magic)
		}
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// readInput reads the file named by the only positional argument, or stdin
// when there is none or it is "-".
func readInput(pos []string, stdin io.Reader) ([]byte, error) {
	if len(pos) == 1 && pos[0] != "-" {
		return os.ReadFile(pos[0])
	}
	return io.ReadAll(stdin)
}
