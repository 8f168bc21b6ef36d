package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"sdp/conformance/datagen"
)

func TestWriteDocuments(t *testing.T) {
	dir := t.TempDir()
	if err := writeDocuments(dir, 3, "registry_62"); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Seed      uint64
		Documents []ManifestEntry
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	want := ManifestEntry{"registry_62", "plugins", "PluginRegistry", "registry_62.json"}
	if m.Seed != 3 || len(m.Documents) != 1 || m.Documents[0] != want {
		t.Fatalf("manifest: %s", raw)
	}
	doc, err := os.ReadFile(filepath.Join(dir, want.File))
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != string(datagen.Marshal(datagen.Registry(3))) {
		t.Error("the written registry is not Registry(3)")
	}
	if err := writeDocuments(dir, 3, "no_such_document"); err == nil {
		t.Error("an unknown --only name was accepted")
	}
}

func TestWriteCorpusNeedsConformanceDir(t *testing.T) {
	if err := writeCorpus(t.TempDir()); err == nil {
		t.Error("writeCorpus wrote into a directory without schemas/")
	}
}
