package main

// Regenerate the registry package after editing registry.sdp:
//
//	go generate ./examples/go
//
//go:generate go run sdp/cmd/sdp gen --lang go --out registry registry.sdp
