// Package dataset reads and writes the revisit dataset of SPEC §2: a
// directory holding pages.parquet (one row per page with its sorted, unique
// update times) and manifest.json (inputs, filters, counts).
//
// The Arrow schema is declared once, in Schema, and used by the writer, the
// reader and the tests. The writer streams: pages are buffered only until a
// row group is full, and the directory appears at its final path only when
// Close succeeds (it is written under a temporary name and renamed), so a
// failed run never leaves a half-written dataset where a finished one is
// expected. A dataset written in parts (CreateParts) records each part's
// page count in its manifest, so that a shard reads only its own parts
// (Reader.ForShard, Reader.ShardSource). It is not a query engine: readers that need SQL use DuckDB or
// pyarrow on the same files.
package dataset
