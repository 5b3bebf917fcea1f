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
// Decoders: a named xz or LZMA-alone file, and a 7z archive of one file,
// are decoded by the system's xz or 7z when one is on PATH (checked by
// the version it prints), run as a child process beside the parser: the
// built-in (pure Go) LZMA decoders take about twice the CPU. Its output
// is the built-in decoders' byte for byte, damage included: it is held
// back by 8 MiB until the tool has exited successfully, and when the tool
// fails the built-in decoder decodes the file again and takes over after
// the bytes delivered (extstream.go; the exceptions are there, at
// holdBack). Reader.Decoder says which ran; Options.Builtin keeps
// everything in-process.
//
// It does not interpret the decompressed content: sniffing MediaWiki XML,
// Yelp JSON or CSV is the ingest driver's job.
package decompress
