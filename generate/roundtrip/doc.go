// Package roundtrip holds only tests: corpora written by generate are read
// back by ingest and must hold exactly the generated updates. It is a
// separate package so that generate itself never depends on ingest.
package roundtrip
