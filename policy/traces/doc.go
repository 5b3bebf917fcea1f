// Package traces reads the real update traces of the shared test data
// (../shared/data/real, see its SOURCES.md) into series.Page values for
// tests, examples and harnesses of the policy, NHPP and staleness packages.
//
// It is not an ingest reader: it knows only the few CSV and JSON-lines
// layouts of those files, keeps no metadata beyond a title and a group, and
// exists so that those packages can be run on real data while ingest is
// written elsewhere.
package traces
