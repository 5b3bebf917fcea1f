// Package yelp reads the Yelp open dataset's JSON lines (reviews, tips and
// check-ins, in the ≤2016 and 2019+ formats) into one revision series per
// business, and the business file for names and cities.
//
// It is not a decompressor or tar reader (the ingest driver hands it an
// already-decompressed member) and it keeps no review text: only the
// business id and the timestamps of each record.
package yelp
