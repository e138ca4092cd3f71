package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// stdin is what a FILE of "-" reads; tests hand their own.
var stdin io.Reader = os.Stdin

// stdinName is how findings name standard input, as compilers do.
const stdinName = "<stdin>"

// readInput reads a FILE argument, standard input for "-"; name is how
// findings spell it. The error names the file once (not as os.PathError
// does, twice).
func readInput(file string) (data []byte, name string, err error) {
	if file == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, stdinName, fmt.Errorf("reading standard input: %w", err)
		}
		return data, stdinName, nil
	}
	data, err = os.ReadFile(file)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, file, fmt.Errorf("reading %s: %w", file, pe.Err)
	}
	if err != nil {
		return nil, file, fmt.Errorf("reading %s: %w", file, err)
	}
	return data, file, nil
}

// readsStdinTwice says files name standard input more than once: the second
// read would find it empty.
func readsStdinTwice(files []string) bool {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n > 1
}
