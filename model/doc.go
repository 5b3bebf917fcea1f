// Package model holds the update and sampling models of revisit: the
// distributions of inter-update and inter-visit delays (SPEC §4, §6.1) with
// their closed forms — the CDF F, the mean E[U] and the age (residual)
// distribution G(x) = (1/E[U]) ∫_0^x (1 − F(t)) dt — and seeded draws; and
// the update processes built on them (Process: renewal, ON/OFF bursts,
// non-homogeneous Poisson, long-range dependent intervals), with per-page
// parameter draws (Model) and exact fractional Gaussian noise (FGN).
//
// All distributions share one shape, the Dist interface, and all processes
// the Process interface. Times are in whatever unit the caller works in
// (hours for Wikipedia, days for Yelp); the package never assumes one. It
// is not a statistics library: fitting lives in analysis, estimators in
// replay.
package model
