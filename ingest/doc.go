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
// Command is `revisit ingest`: it parses and checks the command line's
// CommandOptions (Validate: ParseFlags, Check), shows the progress and
// prints the Summary through a console.Console; Run is ingest as a
// library, which takes Options and prints nothing (the caller passes a Progress). The package holds no
// format parsing itself (that is in ingest/mediawiki, ingest/mwhistory,
// ingest/yelp and ingest/generic).
package ingest
