# Shortcuts for the scripts in scripts/ (they work without make too).
.PHONY: setup demo test update bench bench-quick sdp

setup:
	scripts/setup

demo:
	scripts/demo

test:
	scripts/test

# Regenerate every golden file: generated sources, golden vectors, diagnostics.
# The packages with golden files (the others have no -update flag).
GOLDEN = ./schema ./conformance ./gen/golang ./gen/rust ./gen/cpp ./gen/c ./gen/swift

update:
	go test $(GOLDEN) -update

bench:
	bench/run

# Every benchmark once: checks the suite builds and runs (what CI does).
bench-quick:
	bench/run --quick

sdp:
	go build -o bin/sdp ./cmd/sdp
