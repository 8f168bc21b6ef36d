// Command sdpipc is the Go side of the IPC workload (bench/ipc) and its
// runner. As bench/build/bin/bench-ipc it runs every writer → reader pair
// over a pipe and a Unix socket and writes bench/build/results/ipc.json;
// as bench/build/ipc/bin/ipc-go it is a writer or reader:
//
//	ipc-go write|floor-write KIND N DATA   writes N messages to stdout
//	ipc-go read|read-reuse|floor-read|pb-read KIND N DATA   reads stdin to its end
//
// Every writer prints "ipc-start <CLOCK_MONOTONIC ns>" on stderr just
// before its first write; every reader prints "ipc-end <ns> <count>
// <checksum> <wire bytes>" on stdout after its last message.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) >= 3 && !isFlag(os.Args[1]) {
		if err := peer(os.Args[1], os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ipc-go:", err)
			os.Exit(1)
		}
		return
	}
	if err := runner(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench-ipc:", err)
		os.Exit(1)
	}
}

func isFlag(s string) bool { return len(s) > 0 && s[0] == '-' }

func peer(mode string, args []string) error {
	kind := args[0]
	n := 0
	data := ""
	if len(args) > 1 {
		v, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		n = v
	}
	if len(args) > 2 {
		data = args[2]
	}
	switch mode {
	case "write":
		return writeSDP(kind, data, n)
	case "read":
		return readSDP(kind, false)
	case "read-reuse":
		return readSDP(kind, true)
	case "floor-write":
		return writeFloor(kind, data, n)
	case "floor-read":
		return readFloor()
	case "pb-read":
		return readProto(kind)
	}
	return fmt.Errorf("unknown mode %q", mode)
}
