// Package ingest is the first stage of revisit: it opens each input
// (decompressing by magic bytes, stepping into tar and 7z archives), sniffs
// what it holds (MediaWiki XML, Wikimedia's mediawiki_history TSV, Yelp JSON
// lines, a generic CSV/JSON log), streams the objects of the matching reader
// through the filters of SPEC §1 — with the revision filters of
// wikifilter.go, what counts as an update on a wiki — and writes the Parquet
// dataset of SPEC §2 with its manifest. RunJobs reads several inputs at
// once, each in a child process of the revisit program, and joins their
// datasets (ingest --jobs).
//
// It holds no format parsing itself (that is in ingest/mediawiki,
// ingest/mwhistory, ingest/yelp and ingest/generic) and no terminal output (the caller passes
// a Progress and prints the Summary).
package ingest
