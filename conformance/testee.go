package conformance

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// The testee protocol. The runner owns every case; a testee is a small
// program per language and schema, built from that language's generated
// code, that answers requests on stdin/stdout until stdin closes.
//
// Request:  u32 LE length N, then N bytes: op (u8), type id (u16 LE), input.
// Response: u32 LE length M, then M bytes: status (u8), then output.
//
// Ops:
//   - OpRoundtrip: decode input as the struct with that message type id
//     (default depth limit), encode the result; reply the bytes.
//     A backend that can decode into an existing value (docs/conformance.md,
//     "Decoding into an existing value") also decodes input into the value
//     left over from the previous OpRoundtrip request of the same type id and
//     answers StatusBroken when that disagrees with the owned decode, or when
//     a rejected decode did not reset the value to its default.
//   - OpMessage: decode input with the schema's message dispatcher
//     (the type id is informational), encode the result as a message.
//   - OpStream: input is a u32 LE maximum payload length (0: no maximum),
//     then a stream of messages (docs/wire-format.md, "Streams"). Read every
//     message with the language's stream reader and write each back with
//     its stream writer; reply the stream written. A rejection reads
//     "<rule> <index> <offset>: <message>": the first bad message's index
//     and the stream offset of the problem (see StreamVectors).
//   - OpStreamAll: input as OpStream. Read the stream with the language's
//     stream reader until its end or an error that ends the stream (the
//     rule of docs/wire-format.md, "Streams": after a message that was
//     read whole the reader goes on with the next one), writing every
//     message back with the stream writer. Every error is a line
//     "<rule> <index> <offset> <skippable>\n" (skippable: 1 when the
//     reader's flag says it can go on, else 0); after an error that ends
//     the stream, read once more and record that read: the same error again
//     as a line of its own, or "end\n" or "message\n" if the reader
//     returned the end or a message. Reply StatusOK with a u32 LE length N,
//     the N bytes of the lines, then the stream written (ReferenceStreamAll).
//
// Statuses: StatusOK + encoded bytes; StatusRejected + UTF-8 error text
// "<rule>: <message>" when decoding failed, where rule is the name of the
// broken rule in docs/wire-format.md (truncated, trailing, bool, presence,
// enum, union_tag, utf8, count, depth, message); StatusBroken + text when
// the testee found an internal
// inconsistency (for example its zero-copy view API disagreed with its owned
// API, or it does not know the type id).
const (
	OpRoundtrip byte = 1
	OpMessage   byte = 2
	OpStream    byte = 3
	OpStreamAll byte = 4

	StatusOK       byte = 0
	StatusRejected byte = 1
	StatusBroken   byte = 2
)

// Testee answers one request.
type Testee interface {
	Do(op byte, typeID uint16, input []byte) (status byte, output []byte, err error)
	Close() error
}

// TesteeFunc adapts an in-process function (the Go backends use this).
type TesteeFunc func(op byte, typeID uint16, input []byte) (byte, []byte)

func (f TesteeFunc) Do(op byte, typeID uint16, input []byte) (byte, []byte, error) {
	s, out := f(op, typeID, input)
	return s, out, nil
}

func (TesteeFunc) Close() error { return nil }

// process is a testee running as a child process.
type process struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *strings.Builder
}

// Start runs cmd as a testee.
func Start(cmd *exec.Cmd) (Testee, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &process{cmd: cmd, in: in, out: bufio.NewReader(out), stderr: stderr}, nil
}

func (p *process) Do(op byte, typeID uint16, input []byte) (byte, []byte, error) {
	req := make([]byte, 4+3+len(input))
	binary.LittleEndian.PutUint32(req, uint32(3+len(input)))
	req[4] = op
	binary.LittleEndian.PutUint16(req[5:], typeID)
	copy(req[7:], input)
	if _, err := p.in.Write(req); err != nil {
		return 0, nil, p.died(err)
	}
	var hdr [4]byte
	if _, err := io.ReadFull(p.out, hdr[:]); err != nil {
		return 0, nil, p.died(err)
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || n > 1<<30 {
		return 0, nil, fmt.Errorf("testee sent a bad response length %d", n)
	}
	resp := make([]byte, n)
	if _, err := io.ReadFull(p.out, resp); err != nil {
		return 0, nil, p.died(err)
	}
	return resp[0], resp[1:], nil
}

// died explains an I/O failure: usually the testee crashed.
func (p *process) died(err error) error {
	p.in.Close()
	werr := p.cmd.Wait()
	msg := fmt.Sprintf("testee stopped answering (%v; exit: %v)", err, werr)
	if s := p.stderr.String(); s != "" {
		msg += "\nstderr:\n" + s
	}
	return errors.New(msg)
}

func (p *process) Close() error {
	p.in.Close()
	err := p.cmd.Wait()
	if err != nil && p.stderr.Len() > 0 {
		return fmt.Errorf("%v\nstderr:\n%s", err, p.stderr.String())
	}
	return err
}

// Serve is the testee side of the protocol for Go programs: it reads requests
// from r and writes handle's answers to w until r ends.
func Serve(r io.Reader, w io.Writer, handle TesteeFunc) error {
	br := bufio.NewReader(r)
	bw := bufio.NewWriter(w)
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if err == io.EOF {
				return bw.Flush()
			}
			return err
		}
		n := binary.LittleEndian.Uint32(hdr[:])
		if n < 3 {
			return fmt.Errorf("request too short: %d bytes", n)
		}
		req := make([]byte, n)
		if _, err := io.ReadFull(br, req); err != nil {
			return err
		}
		status, out := handle(req[0], binary.LittleEndian.Uint16(req[1:]), req[3:])
		binary.LittleEndian.PutUint32(hdr[:], uint32(1+len(out)))
		bw.Write(hdr[:])
		bw.WriteByte(status)
		bw.Write(out)
		if err := bw.Flush(); err != nil {
			return err
		}
	}
}
