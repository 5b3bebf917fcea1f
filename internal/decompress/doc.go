// Package decompress opens an input file (or standard input) and undoes its
// compression, detected from magic bytes: gzip, bzip2 (parallel), zstd, xz,
// LZMA-alone, 7z or none; tar archives and 7z archives are read member by
// member, and the stored bytes are counted and hashed for progress and the
// manifest.
//
// It does not interpret the decompressed content: sniffing MediaWiki XML,
// Yelp JSON or CSV is the ingest driver's job.
package decompress
