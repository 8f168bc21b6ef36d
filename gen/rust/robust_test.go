package rust

import (
	"bytes"
	"encoding/hex"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/schema"
)

// TestMutations feeds the testee mutated golden vectors (bit flips, byte
// overwrites with boundary values, truncations, insertions, inflated
// counts) through every decode API. No input may make a decoder panic or
// the APIs disagree (status 2), and an accepted input must re-encode to
// itself: the encoding is canonical, so anything a strict decoder accepts
// is the unique encoding of what it decoded.
func TestMutations(t *testing.T) {
	w := buildWorkspace(t)
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	total := 0
	for _, name := range names {
		s, err := schema.Load(conformance.SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		cases, err := conformance.Cases(name)
		if err != nil {
			t.Fatal(err)
		}
		te, err := conformance.Start(exec.Command(w.testee, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Golden == nil {
				continue
			}
			st := s.Struct(c.Type)
			for _, in := range mutations(rng, c.Golden) {
				for _, op := range []byte{conformance.OpRoundtrip, conformance.OpMessage} {
					input := in
					if op == conformance.OpMessage {
						input = conformance.Message(st.ID, in)
					}
					total++
					status, out, err := te.Do(op, st.ID, input)
					if err != nil {
						t.Fatalf("%s: op %d on %s: %v", c.ID(), op, short(input), err)
					}
					switch {
					case status == conformance.StatusBroken:
						t.Errorf("%s: op %d on %s: %s", c.ID(), op, short(input), out)
					case status == conformance.StatusOK && !bytes.Equal(out, input):
						t.Errorf("%s: op %d accepted %s but re-encoded %s", c.ID(), op, short(input), short(out))
					}
				}
			}
			// A mutated message header around the intact payload.
			msg := conformance.Message(st.ID, c.Golden)
			for i := 0; i < 10 && i < len(msg); i++ {
				m := append([]byte(nil), msg...)
				m[i] ^= byte(1 << uint(rng.Intn(8)))
				total++
				status, out, err := te.Do(conformance.OpMessage, st.ID, m)
				if err != nil {
					t.Fatalf("%s: header mutation: %v", c.ID(), err)
				}
				if status == conformance.StatusBroken || (status == conformance.StatusOK && !bytes.Equal(out, m)) {
					t.Errorf("%s: header mutation %s: status %d %s", c.ID(), short(m), status, out)
				}
			}
		}
		if err := te.Close(); err != nil {
			t.Errorf("%s: testee exit: %v", name, err)
		}
	}
	t.Logf("%d mutated inputs decoded without a panic or a disagreement", total)
}

// mutations derives malformed variants of a valid encoding.
func mutations(rng *rand.Rand, in []byte) [][]byte {
	var out [][]byte
	clone := func() []byte { return append([]byte(nil), in...) }
	// Every truncation of short inputs, a sample of long ones.
	for n := 0; n < len(in); n++ {
		if len(in) <= 64 || rng.Intn(len(in)) < 16 {
			out = append(out, in[:n])
		}
	}
	if len(in) == 0 {
		return append(out, []byte{0}, []byte{0xff, 0xff, 0xff, 0xff})
	}
	for i := 0; i < 24; i++ {
		m := clone()
		m[rng.Intn(len(m))] ^= byte(1 << uint(rng.Intn(8)))
		out = append(out, m)
	}
	specials := []byte{0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff}
	for i := 0; i < 12; i++ {
		m := clone()
		m[rng.Intn(len(m))] = specials[rng.Intn(len(specials))]
		out = append(out, m)
	}
	// Inflate a would-be u32 count or length.
	for i := 0; i < 6 && len(in) >= 4; i++ {
		m := clone()
		at := rng.Intn(len(m) - 3)
		copy(m[at:], []byte{0xff, 0xff, 0xff, byte(rng.Intn(256))})
		out = append(out, m)
	}
	// Insert and delete a byte.
	for i := 0; i < 4; i++ {
		at := rng.Intn(len(in) + 1)
		ins := append(append(append([]byte(nil), in[:at]...), byte(rng.Intn(256))), in[at:]...)
		out = append(out, ins)
		if at < len(in) {
			out = append(out, append(append([]byte(nil), in[:at]...), in[at+1:]...))
		}
	}
	return out
}

func short(b []byte) string {
	if len(b) > 48 {
		return hex.EncodeToString(b[:48]) + "..."
	}
	return hex.EncodeToString(b)
}

// TestCrateQuality checks the generated crates the way a user's CI would:
// clippy with warnings denied (or a warning-free build where clippy is not
// installed), rustfmt --check on every generated file, and the runtime's
// unit tests (which cover every unsafe block) under cargo test, and the
// documentation with rustdoc warnings (broken links) denied.
func TestCrateQuality(t *testing.T) {
	w := buildWorkspace(t)
	names := w.crates
	var pkgs []string
	for _, n := range names {
		pkgs = append(pkgs, "-p", crateName(n))
	}
	t.Run("clippy", func(t *testing.T) {
		if _, err := exec.LookPath("cargo-clippy"); err != nil {
			args := append([]string{"check", "--all-targets", "--message-format", "short"}, pkgs...)
			out, err := w.cargo(t, args...)
			if err != nil || strings.Contains(out, "warning") {
				t.Fatalf("cargo check: %v\n%s", err, out)
			}
			t.Log("clippy is not installed: checked for compiler warnings only")
			return
		}
		args := append(append([]string{"clippy", "--quiet", "--all-targets"}, pkgs...), "--", "-D", "warnings")
		if out, err := w.cargo(t, args...); err != nil || strings.TrimSpace(out) != "" {
			t.Fatalf("cargo clippy: %v\n%s", err, out)
		}
	})
	t.Run("rustfmt", func(t *testing.T) {
		rustfmt, err := exec.LookPath("rustfmt")
		if err != nil {
			t.Skip("rustfmt is not installed")
		}
		for _, n := range names {
			files, _ := filepath.Glob(filepath.Join(w.dir, "crates", n, "src", "*.rs"))
			args := append([]string{"--edition", "2021", "--check"}, files...)
			cmd := exec.Command(rustfmt, args...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: generated code is not formatted as rustfmt would: %v\n%s", n, err, out)
			}
		}
	})
	t.Run("unit", func(t *testing.T) {
		// Every crate carries the same runtime; its tests run once.
		out, err := w.cargo(t, "test", "--quiet", "-p", "plugins", "--lib")
		if err != nil {
			t.Fatalf("cargo test: %v\n%s", err, out)
		}
		if !strings.Contains(out, "test result: ok") {
			t.Fatalf("cargo test ran no tests:\n%s", out)
		}
	})
	t.Run("docs", func(t *testing.T) {
		args := append([]string{"doc", "--no-deps", "--quiet"}, pkgs...)
		cmd := exec.Command("cargo", args...)
		cmd.Dir = w.dir
		cmd.Env = append(w.cargoEnv(), "RUSTDOCFLAGS=-D warnings")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cargo doc: %v\n%s", err, out)
		}
	})
}
