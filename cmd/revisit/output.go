package main

import (
	"fmt"
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
