package main

import (
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/tables"
)

// checkOutput refuses, before any work, an output path dir that command
// name could not replace at the end (atomicdir.CheckOutput): a
// usage.Refused, exit code 2, in every command alike.
func checkOutput(name, dir, marker, what string) error {
	return atomicdir.CheckOutput(name, dir, marker, what)
}

// checkResults is checkOutput for a results directory of the given kind
// (tables.WriteResults: analyze, policies, simulate, report).
func checkResults(name, dir, kind string) error {
	return tables.CheckResultsOutput(name, dir, kind)
}
