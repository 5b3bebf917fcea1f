// Package replay runs virtual crawlers over update series and computes every
// estimator of the update distribution of SPEC §4: the crawler visits a page
// at times drawn from a sampling process F_S, observes ages or change
// indicators in one merge pass, and M1–M6, G-M4, the F_U recovery and the
// Poisson baselines turn those observations into CDFs on a grid; Run replays
// a whole dataset into estimates.parquet and Simulate measures convergence
// on synthetic renewal processes.
//
// The estimators are a table, Registry: one Method descriptor each (name,
// whether it needs ages or only change indicators, constant delays only,
// step function, class unbiased/biased/Poisson baseline, whether F_U is
// recovered from it, and its constructor on a Crawl). Replay, the
// estimate command, analysis and the --methods help texts read it, so an
// estimator is added by one descriptor and its code (see the example of
// Registry.With). estimates.parquet (Estimate, EachEstimate) is the one
// contract between replay and its readers.
//
// It does not compute the analysis statistics (CoV, Hurst, tail fits, the
// official WMRD/KS tables): those belong to package analysis, which reads
// the output of Run.
package replay
