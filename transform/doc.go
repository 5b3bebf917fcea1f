// Package transform turns stored update series into what the estimators and
// the analysis work on (SPEC §3): inter-update intervals in a chosen unit,
// the exact ground truth of a sample path — F_U (IntervalCDF) and G_U
// (AgeCDF) — and selections of pages (top-N, at least K updates, the
// aggregate of all intervals).
//
// It computes, it does not read or write files: callers hand it pages from
// a dataset.Reader.
package transform
