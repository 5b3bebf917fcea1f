// Package interop holds the DuckDB interoperability test: a dataset written
// by revisit is read back with DuckDB's Node API (read.mjs, installed by
// scripts/test-deps.d/duckdb.sh) and must give the same pages and counts.
//
// It has no code of its own; node_modules is never committed.
package interop
