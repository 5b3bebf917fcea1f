// Package generate writes synthetic corpora whose update process is known
// (SPEC §6.1): per-page update times from the processes of package model,
// written as a MediaWiki stub-meta-history XML dump, Yelp-style review JSON
// lines or the Parquet dataset, plus truth.json with every page's model,
// parameters and closed forms.
//
// It is not a reader: ingest reads what it writes, and ReadTruth gives the
// truth back to tests and the demo. Command is 'revisit generate': its
// flags' text checked and parsed (CommandOptions.Validate), then Run.
package generate
