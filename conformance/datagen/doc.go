// Package datagen generates the conformance corpus's long values and invalid
// vectors, and realistic bulk data for the benchmarks, reproducibly.
//
// Everything is a pure function of a seed: the package has its own PRNG
// (splitmix64, see Rand) instead of math/rand, uses integer arithmetic where
// it can, and rounds every floating-point step explicitly, so the same seed
// gives the same bytes on every platform and Go version.
//
// Values are built as Object, []interface{}, typed numeric slices and the
// scalar types F32, F64 and Bytes, and rendered by Marshal in the JSON
// mapping of docs/json-mapping.md, ready for `sdp encode`.
//
//   - Registry: the 62-plugin, 1,759-parameter PluginRegistry (plugins.sdp).
//   - Documents: every benchmark workload (U32Array, AudioBuffer, F32Array,
//     ByteArray, SmallArrays, AllPrimitives, Scene, AudioDevice, Reading,
//     and the public suites' shapes StructA, Mesh and Logs).
//   - CorpusCases, InvalidVectors, Corpus: the generated files of the
//     conformance corpus (cases too long to write by hand, invalid/*.json).
//
// The command sdp-datagen (cmd/sdp-datagen) writes them; see
// docs/conformance.md.
package datagen
