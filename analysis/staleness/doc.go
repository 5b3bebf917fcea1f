// Package staleness measures the cost of assuming Poisson updates: for a
// crawler that revisits a page every Δ, the fraction of time its copy is
// stale, computed exactly on the real update series, against what an
// exponential model with the same rate predicts, and the Δ each needs to
// keep staleness below a target ε.
//
// It is not a crawler simulator: visits are a deterministic grid (with a
// given or uniformly averaged phase), and it estimates nothing about the
// update distribution beyond its rate; the estimators live in replay.
package staleness
