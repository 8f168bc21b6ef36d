package main

import (
	"errors"
	"io"
)

// Temporary until the reference codec lands (being written now).
func cmdEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}

func cmdDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}
