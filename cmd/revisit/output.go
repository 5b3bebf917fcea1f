package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/tables"
)

// checkOutput refuses, before any work, an output path dir that command
// name could not replace at the end (atomicdir.CheckReplaceable: it holds
// something revisit did not write as an output with this marker): a
// refusedError, exit code 2, in every command alike.
func checkOutput(name, dir, marker, what string) error {
	if err := atomicdir.CheckReplaceable(filepath.Clean(dir), marker, what); err != nil {
		return refusedError{fmt.Errorf("%s: %w", name, err)}
	}
	return nil
}

// checkResults is checkOutput for a results directory of the given kind
// (tables.WriteResults: analyze, policies, simulate, report).
func checkResults(name, dir, kind string) error {
	if err := tables.CheckResults(dir, kind); err != nil {
		return refusedError{fmt.Errorf("%s: %w", name, err)}
	}
	return nil
}

// stdoutWriter is standard output as every command writes it (the root
// command's SetOut): the summaries and tables a command prints, and what
// it was asked to print (generate -o -). A write that fails (a closed pipe:
// the reader of '| head' left; a full disk) is remembered, returned as a
// *stdoutError, and every later write fails at once without a system call.
// The failure never stops a command's work or its outputs: revisit ignores
// SIGPIPE (execute), commands print their summaries after committing or
// ignore the error, and execute turns it into exitStdout once the command
// is done.
type stdoutWriter struct {
	w   io.Writer
	err *stdoutError
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = &stdoutError{err}
		return n, s.err
	}
	return n, nil
}

// stdoutError is a write to standard output that failed.
type stdoutError struct{ err error }

func (e *stdoutError) Error() string { return "standard output: " + e.err.Error() }
func (e *stdoutError) Unwrap() error { return e.err }
