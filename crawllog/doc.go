// Package crawllog estimates the update distributions of real URLs from
// real crawl logs, where there is no ground truth: `revisit estimate`.
//
// The logs (Wayback CDX and its JSON form, Common Crawl CDXJ, change-bit
// traces such as the Bing crawl trace, generic CSV/TSV visit logs) are read
// by package crawllog/logs into one series.Observed per URL — whole-second
// visit times with Last-Modified times or change bits — and each URL goes
// through estimator.EstimateObserved: every method its observations allow
// (M1, M2, age-mle with ages; M3, M4, M5, cho, matloff with constant
// delays; G-M4, M6, naive, poisson-mle always), on a grid chosen per URL
// from its capture delays (docs/methods.md#observed-grid). What it writes
// (estimate.go: EstimateLogs):
//
//	OUT/estimates.parquet  replay's schema (package estimates), no truth rows
//	OUT/estimate.json      EstimateMeta: inputs, options, counts, skips, verdicts,
//	                       the grids' empty bins
//	OUT/urls.csv           per URL (urls.go): its grid and empty bins, the
//	                       trace's importance, the SURT key's original URLs
//	OUT/tables, figures    the estimate bundle for `revisit report` (report.go):
//	                       the inputs, the top URLs by visits, the Poisson
//	                       verdict, G_U and F_U of the 3 URLs drawn
//
// `revisit estimate` is Command (command.go): CommandOptions.Validate
// checks the options as the command line gives them and parses its text
// (the unit, the shard, the curves), the output is refused before any input is read,
// and EstimateMeta.WriteSummary prints what was read and concluded (also
// after `revisit merge estimate`).
//
// The Poisson verdict of a URL compares its consistent estimate of G_U
// (M2 with ages, M4 for constant delays, M6 otherwise) with the
// exponential of its poisson-mle rate: "Poisson" when their KS distance is
// at most PoissonVerdictKS, on at least MinChanges changes seen
// (DefaultMinChanges; fewer: "undecided (n changes, need K)";
// docs/methods.md#poisson-verdict). Verdicts and figures (report.go) use
// each estimate's monotone projection (estimator.Monotone); the parquet
// keeps the raw rows.
//
// Sharding (shard.go, merge.go): with EstimateOptions.Shard = i/N a
// process estimates only the URLs of its shard — its byte range of the
// inputs when they allow it (logs.PlanRanges), else those whose id
// hashes to it (EstimateOptions.ShardBy) — and writes estimate-shard.json
// (EstimateShardInfo: the scheme, the range, the inputs' fingerprints,
// the counts) and, streamed, estimate-shard-urls.jsonl (each URL's place
// in the reading order and its report line); MergeEstimates streams N shards back into what one
// unsharded estimate writes, estimates.parquet byte for byte. The
// mechanics shared with replay's Merge (checking the split, streaming the
// shards' rows, the output directory, exact floats in JSON, MergeError)
// live in internal/shard (the split) and estimates (the rows); what is merged and how it is checked — the
// URL order, the counts, the bundle — is this package's own, as replay's
// page order and WMRD/KS summary are replay's.
//
// crawllog imports estimator and estimates, never replay: the crawler
// simulation and the estimation of real logs are two users of the same
// estimators.
package crawllog
