// Command sdp-datagen writes the seeded bulk-data documents used by the
// benchmarks, or regenerates the generated part of the conformance corpus.
//
//	sdp-datagen --out DIR [--seed N]    DIR/<name>.json for every workload, and DIR/manifest.json
//	sdp-datagen --corpus conformance    rewrite the generated cases and invalid/*.json
//
// The documents are values in the JSON mapping (docs/json-mapping.md); turn
// one into bytes with `sdp encode --schema conformance/schemas/<schema>.sdp
// --type <type> < DIR/<name>.json`. The same seed always gives the same bytes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"sdp/conformance/datagen"
)

func main() {
	out := flag.String("out", "", "write the benchmark documents and manifest.json into this directory")
	seed := flag.Uint64("seed", datagen.DefaultSeed, "generator seed for --out")
	only := flag.String("only", "", "with --out: write just this document (e.g. registry_62)")
	corpus := flag.String("corpus", "", "rewrite the generated corpus files under this conformance directory")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage:\n  sdp-datagen --out DIR [--seed N] [--only NAME]\n  sdp-datagen --corpus CONFORMANCE_DIR\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || (*out == "") == (*corpus == "") {
		flag.Usage()
		os.Exit(2)
	}
	var err error
	if *corpus != "" {
		err = writeCorpus(*corpus)
	} else {
		err = writeDocuments(*out, *seed, *only)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdp-datagen:", err)
		os.Exit(1)
	}
}

// ManifestEntry describes one document; the benchmark harness reads
// manifest.json to encode each document for every language.
type ManifestEntry struct {
	Name   string `json:"name"`
	Schema string `json:"schema"` // conformance/schemas/<schema>.sdp
	Type   string `json:"type"`   // the top-level struct
	File   string `json:"file"`   // relative to the manifest
}

func writeDocuments(dir string, seed uint64, only string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var manifest []ManifestEntry
	for _, d := range datagen.Documents(seed) {
		if only != "" && d.Name != only {
			continue
		}
		file := d.Name + ".json"
		if err := os.WriteFile(filepath.Join(dir, file), datagen.Marshal(d.Value), 0o644); err != nil {
			return err
		}
		manifest = append(manifest, ManifestEntry{d.Name, d.Schema, d.Type, file})
	}
	if len(manifest) == 0 {
		return fmt.Errorf("no document named %q", only)
	}
	b, err := json.MarshalIndent(struct {
		Seed      uint64          `json:"seed"`
		Documents []ManifestEntry `json:"documents"`
	}{seed, manifest}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}

func writeCorpus(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "schemas")); err != nil {
		return fmt.Errorf("%s does not look like the conformance directory (no schemas/)", dir)
	}
	for _, f := range datagen.Corpus() {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
