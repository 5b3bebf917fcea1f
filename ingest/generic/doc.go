// Package generic reads update logs from anywhere into per-object revision
// series: CSV/TSV with a header, JSON lines of objects or arrays, and
// one-object-per-file JSON whose keys are the timestamps, with the object id
// (one column, or the tuple of several: Options.ID), the timestamp, an
// optional group and an optional title picked by column name or index.
//
// It is not a format sniffer for whole dumps (the ingest driver decides which
// reader gets a file) and it does not decompress: it reads an
// already-decompressed io.Reader.
package generic
