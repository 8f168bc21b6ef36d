package datagen

import (
	"fmt"
	"strings"
)

// DepthLimit is the default decoder depth limit of docs/wire-format.md.
const DepthLimit = 64

// CorpusFile is a generated file of the conformance corpus, relative to the
// conformance directory.
type CorpusFile struct {
	Path    string
	Content []byte
}

// CorpusCase is a generated case of the conformance corpus.
type CorpusCase struct {
	Schema, Name, Type string
	Value              interface{}
}

// CorpusCases are the value cases too long to write by hand. They live next
// to the hand-written ones in cases/<schema>/ and are rewritten by
// `sdp-datagen --corpus conformance`; a test keeps them in sync.
func CorpusCases() []CorpusCase {
	return []CorpusCase{
		{"plugins", "registry_62", "PluginRegistry", Registry(DefaultSeed)},
		{"arrays", "u32_100", "U32Array", U32Array(DefaultSeed, 100)},
		{"arrays", "u32_1000", "U32Array", U32Array(DefaultSeed, 1000)},
		{"arrays", "i16_48000_audio", "I16Array", AudioBuffer(DefaultSeed, 48000)},
		{"arrays", "arrays_large", "Arrays", largeArrays(1000)},
		{"arrays", "bytes_70000", "ByteArray", ByteArray(DefaultSeed, 70000)},
		{"nested", "scene_100", "Scene", Scene(DefaultSeed, 100)},
		{"nested", "audio_device_chain", "AudioDevice", AudioDevice(DefaultSeed, 8)},
		{"primitives", "text_long_8k", "Text", Obj("value", longText(8192))},
		{"primitives", "text_long_65537", "Text", Obj("value", strings.Repeat("0123456789abcdef", 4096)+"!")},
		{"recursive", "tree_depth_64", "Tree", TreeChain(DepthLimit)},
		{"recursive", "tree_wide", "Tree", wideTree()},
		{"recursive", "node_depth_64", "Node", NodeChain(DepthLimit)},
		{"recursive", "dir_depth_64", "Dir", DirChain(DepthLimit)},
		{"recursive", "program_depth_64", "Program", ProgramChain(DepthLimit)},
		{"leaderboard", "struct_a", "StructA", StructA(DefaultSeed)},
		{"leaderboard", "mesh_small", "Mesh", Mesh(DefaultSeed, 3)},
		{"leaderboard", "logs_small", "Logs", Logs(DefaultSeed, 4)},
	}
}

// Corpus renders the generated cases and the invalid vectors.
func Corpus() []CorpusFile {
	var out []CorpusFile
	for _, c := range CorpusCases() {
		out = append(out, CorpusFile{
			Path:    "cases/" + c.Schema + "/" + c.Name + ".json",
			Content: Marshal(Case(c.Type, c.Value)),
		})
	}
	for _, schema := range InvalidSchemas() {
		out = append(out, CorpusFile{
			Path:    "invalid/" + schema + ".json",
			Content: MarshalInvalid(InvalidVectors(schema)),
		})
	}
	return out
}

// TreeChain is a recursive.sdp Tree whose deepest struct is at depth depth:
// each tree has one child, the last none.
func TreeChain(depth int) Object {
	var t Object
	for d := depth; d >= 1; d-- {
		children := []interface{}{}
		if t != nil {
			children = append(children, t)
		}
		t = Obj("value", int32(d), "children", children)
	}
	return t
}

// NodeChain is a recursive.sdp Node list of depth nodes.
func NodeChain(depth int) Object {
	var next interface{}
	for d := depth; d >= 1; d-- {
		next = Obj("value", fmt.Sprintf("node %d", d), "next", next)
	}
	return next.(Object)
}

// DirChain is a recursive.sdp Dir whose deepest struct is at depth depth:
// Dir (1) → Entry (2) → Dir (3) → ...
func DirChain(depth int) Object {
	var v Object
	for d := depth; d >= 1; d-- {
		if d%2 == 1 { // a Dir
			entries := []interface{}{}
			if v != nil {
				entries = append(entries, v)
			}
			v = Obj("name", fmt.Sprintf("d%d", d), "entries", entries)
		} else { // an Entry
			var sub interface{}
			if v != nil {
				sub = v
			}
			v = Obj("name", fmt.Sprintf("e%d", d), "size", uint64(d), "sub", sub)
		}
	}
	return v
}

// ProgramChain is a recursive.sdp Program whose deepest value is at depth
// depth: Program (1), then Neg{inner} unions (2 ...), ending in a Lit.
func ProgramChain(depth int) Object {
	var e Object = Variant("Lit", Obj("value", int64(depth)))
	for d := depth - 1; d >= 2; d-- {
		e = Variant("Neg", Obj("inner", e))
	}
	return Obj("body", e)
}

// wideTree is a Tree of 1,111 nodes: 10 children of 10 children of 10.
func wideTree() Object {
	n := int32(0)
	var build func(level int) Object
	build = func(level int) Object {
		n++
		v := n
		children := []interface{}{}
		if level < 3 {
			for i := 0; i < 10; i++ {
				children = append(children, build(level+1))
			}
		}
		return Obj("value", v, "children", children)
	}
	return build(0)
}

// largeArrays is an arrays.sdp Arrays with n elements in every array, so
// each element kind's bulk path is exercised.
func largeArrays(n int) Object {
	r := stream(DefaultSeed, "arrays_large")
	bools := make([]bool, n)
	bytes := make([]byte, n)
	i8s := make([]interface{}, n)
	u16s := make([]interface{}, n)
	i16s := make([]int16, n)
	u32s := make([]uint32, n)
	i32s := make([]interface{}, n)
	u64s := make([]interface{}, n)
	i64s := make([]interface{}, n)
	f32s := make([]float32, n)
	f64s := make([]interface{}, n)
	strs := make([]string, n)
	points := make([]interface{}, n)
	nested := make([]interface{}, n)
	blobs := make([]interface{}, n)
	for i := 0; i < n; i++ {
		x := r.Uint64()
		bools[i] = x&1 == 1
		bytes[i] = byte(x >> 8)
		i8s[i] = int8(x >> 16)
		u16s[i] = uint16(x >> 24)
		i16s[i] = int16(x >> 40)
		u32s[i] = uint32(x >> 32)
		i32s[i] = int32(x)
		u64s[i] = r.Uint64()
		i64s[i] = int64(r.Uint64())
		f32s[i] = float32(int32(x)>>8) / (1 << 20)
		f64s[i] = F64(float64(int64(r.Uint64())>>11) / (1 << 40))
		strs[i] = fmt.Sprintf("item %d %s", i, words1[i%len(words1)])
		points[i] = Obj("x", F64(float64(i)/4), "y", F64(float64(-i)/8))
		inner := make([]uint32, i%4)
		for j := range inner {
			inner[j] = uint32(i*4 + j)
		}
		nested[i] = inner
		blobs[i] = Bytes(bytes[:i%5])
	}
	return Obj(
		"bools", bools, "bytes", Bytes(bytes), "i8s", i8s, "u16s", u16s, "i16s", i16s,
		"u32s", u32s, "i32s", i32s, "u64s", u64s, "i64s", i64s, "f32s", f32s, "f64s", f64s,
		"strings", strs, "points", points, "nested", nested, "blobs", blobs,
	)
}

// longText is exactly n bytes of text mixing ASCII with 2-, 3- and 4-byte
// UTF-8 sequences.
func longText(n int) string {
	words := []string{"The", "quick", "brown", "fox", "jumps", "über", "den", "faulen", "Hund;",
		"съешь", "же", "ещё", "этих", "булок,", "日本語の", "テキスト", "と", "😀", "🎛️", "𝄞", "naïve", "café", "—"}
	var b strings.Builder
	for i := 0; ; i++ {
		w := words[(i*7+i/len(words))%len(words)]
		if b.Len()+len(w)+1 > n {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	for b.Len() < n {
		b.WriteByte('.')
	}
	return b.String()
}
