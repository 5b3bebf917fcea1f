// Package mediawiki reads MediaWiki XML export dumps (schema 0.3 to 0.11,
// stub-meta-history and pages-meta-history) as a stream of pages with their
// revision timestamps, through a byte-level scanner that jumps over revision
// text with bytes.Index instead of tokenizing it.
//
// It is not an XML parser: it checks the structure it relies on (pages,
// revisions, ids, timestamps, truncation) and ignores everything else, and it
// never keeps revision text. Character data is read as XML defines it
// wherever the reader looks at it: CDATA sections are text whatever they
// hold ('<', '&', tags); comments and processing instructions are nothing,
// whatever they hold.
package mediawiki
