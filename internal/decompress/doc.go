// Package decompress opens an input file (or standard input) and undoes its
// compression, detected from magic bytes: gzip, bzip2 (parallel), zstd, xz,
// LZMA-alone, 7z or none; tar archives and 7z archives are read member by
// member, and the stored bytes are counted and hashed for progress and the
// manifest.
//
// Integrity and salvage: every compressed stream is read to its end, past
// the tar end marker and past what a caller read, so its trailer (gzip
// CRC-32 and size, xz index and checks, bzip2 stream CRC) is verified;
// bytes after an LZMA-alone stream are an error. A stream cut short
// delivers every byte decoded before the cut — for xz and LZMA-alone the
// bytes `xz -dc` and `lzma -dc` write for the same file (xz from a named
// file only: it is decoded a second time, see xzsalvage.go) — then a
// *CorruptError whose Offset is that count. Damage found when the input
// is opened is returned by the first Next, so Size and SHA256 still
// describe the input.
//
// It does not interpret the decompressed content: sniffing MediaWiki XML,
// Yelp JSON or CSV is the ingest driver's job.
package decompress
