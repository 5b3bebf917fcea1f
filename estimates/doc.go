// Package estimates reads and writes estimates.parquet, the one table of
// estimates every estimating stage writes and every later one reads: rows
// of estimator.Estimate (page, sampler, method, kind G or F, the CDF on
// its grid, rate, bin width, note, visits, constant delays), one per
// estimate, in long format.
//
// Replay (with truth rows), crawllog (without) and both merges write it
// with Writer, whose fixed layout makes the same rows the same bytes (a
// merge reproduces an unsharded run byte for byte); analysis and the
// merges read it with Each, which also reads the earlier generations of
// its columns (the version in the file's metadata, SchemaKey, or, in
// files written before it, the columns present). ReadJSON and WriteJSON
// are the JSON records beside it (replay.json, estimate.json, the shard
// records); Merge and RowStream (merge.go) write the output of a merge of
// shards' estimate files from one row stream per shard.
//
// It sits between estimator (the row type) and its users, so that replay,
// crawllog and analysis share the format without importing each other.
package estimates
