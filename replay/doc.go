// Package replay runs virtual crawlers over update series with known
// ground truth: the crawler visits a page at times drawn from a sampling
// process F_S (estimator.Sampler), observes ages or change indicators in
// one merge pass over the update and visit times (crawl.go), and hands
// every visit to the estimators of package estimator (M1–M6, G-M4, the
// Poisson baselines, the F_U recovery), whose estimates it writes beside
// the truth rows G_U and F_U of the page.
//
//   - Run (run.go) replays a whole dataset into estimates.parquet (package
//     estimates) and replay.json (Meta, meta.go), with per-page defaults
//     for x_max, h and relative samplers (defaults.go), work limits, and
//     optionally the crawlers' observation logs (obswrite.go, observe.go:
//     what a real crawler would have logged, estimated as crawllog would).
//   - ReplayTimes and ReplayVisits (path.go) crawl one sample path.
//   - Simulate (simulate.go) measures the estimators' convergence on
//     synthetic renewal processes against the closed forms of
//     estimator/theory.go.
//   - Command and SimulateCommand (command.go) are `revisit replay` and
//     `revisit simulate`: the command line's options checked and parsed
//     (CommandOptions, SimCommandOptions.Validate), the output refused before any work,
//     progress and summaries on a console.Console.
//   - Merge (merge.go) puts the outputs of shards of one replay back into
//     the unsharded output; the mechanics it shares with crawllog's merge
//     are internal/shard (the split) and estimates (the rows).
//
// The estimators themselves are package estimator; real crawl logs are
// estimated by package crawllog. Replay does not compute the analysis
// statistics (CoV, Hurst, tail fits, the official WMRD/KS tables): those
// belong to package analysis, which reads the output of Run.
package replay
