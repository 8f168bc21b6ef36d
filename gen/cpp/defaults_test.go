package cpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// defaultsSchema has enums whose first value is not 0 (one without a 0 at
// all, one where 0 names a later value) in every place a default comes
// from: a struct field, fixed arrays, a struct inside a struct, and a
// union whose first variant is inline.
const defaultsSchema = `enum Level: u8 { Low = 1, High = 2 }
enum Mode: u16 { On = 7, Off = 0 }
struct Inner { level: Level }
union Choice {
    First { name: str, level: Level, modes: [2][3]Mode, count: u32 },
    Second,
}
struct Outer {
    level: Level,
    mode: Mode,
    levels: [4]Level,
    inner: Inner,
    choice: Choice,
    choices: []Choice,
}
`

const defaultsProgram = `#include "defaults.cpp"

#include <cstdio>

int main() {
    const defaults::Outer def{};
    if (def.level != defaults::Level::Low || def.mode != defaults::Mode::On || def.levels[3] != defaults::Level::Low ||
        def.inner.level != defaults::Level::Low || def.choice.value.index() != 0) {
        std::printf("wrong defaults\n");
        return 1;
    }
    const auto& first = std::get<0>(def.choice.value);
    if (first.level != defaults::Level::Low || first.modes[1][2] != defaults::Mode::On || first.count != 0) {
        std::printf("wrong union default\n");
        return 1;
    }
    const auto bytes = defaults::encode(def);
    defaults::Outer back;
    const defaults::Status st = defaults::decode(bytes.data(), bytes.size(), back);
    if (!st || !(back == def)) {
        std::printf("default does not round-trip: %s\n", st.to_string().c_str());
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
`

// TestDefaults checks that default values are the schema's defaults (an
// enum's first declared value, a union's first variant with default
// contents) and encode to bytes the decoder accepts (issue #13: a default
// struct with an enum that has no 0 value encoded an invalid 0).
func TestDefaults(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	s, err := schema.Parse("defaults.sdp", []byte(defaultsSchema))
	if err != nil {
		t.Fatal(err)
	}
	dir := generate(t, s, gen.Options{})
	main := filepath.Join(dir, "main.cpp")
	if err := os.WriteFile(main, []byte(defaultsProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := compile(t, gxx, append(append([]string{}, strictFlags...), "-O1"), main,
		filepath.Join(dir, "defaults.cpp"), filepath.Join(dir, "defaults.hpp"))
	exe := filepath.Join(dir, "main")
	link(t, gxx, nil, exe, obj)
	if out, err := exec.Command(exe).CombinedOutput(); err != nil || string(out) != "ok\n" {
		t.Fatalf("%v\n%s", err, out)
	}
}
