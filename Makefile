# Shortcuts for the scripts in scripts/ (they work without make too).
.PHONY: setup demo test update bench bench-quick sdp soak

setup:
	scripts/setup

demo:
	scripts/demo

test:
	scripts/test

# Regenerate every golden file: generated sources, golden vectors, diagnostics.
# The packages with golden files (the others have no -update flag).
GOLDEN = ./schema ./cmd/sdp ./conformance ./gen/plan ./gen/golang ./gen/rust ./gen/cpp ./gen/c ./gen/swift

update:
	go test $(GOLDEN) -update

bench:
	bench/run

# Every benchmark once: checks the suite builds and runs (what CI does).
bench-quick:
	bench/run --quick

sdp:
	go build -o bin/sdp ./cmd/sdp

# The random-schema conformance suite with many seeds, every backend:
# make soak SEEDS=1-200 (each seed is a schema with plain names and one with
# adversarial names; LANGS=golang,rust limits the backends).
SEEDS ?= 1-200
LANGS ?= golang,c,cpp,rust,swift,python,ts,java
soak:
	scripts/soak "$(SEEDS)" "$(LANGS)"
