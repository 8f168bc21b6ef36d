package main

// Each backend registers itself with gen.Register when imported.
import (
	_ "sdp/gen/c"
	_ "sdp/gen/cpp"
	_ "sdp/gen/golang"
	_ "sdp/gen/java"
	_ "sdp/gen/python"
	_ "sdp/gen/rust"
	_ "sdp/gen/swift"
	_ "sdp/gen/ts"
)
