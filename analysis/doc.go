// Package analysis computes the statistics of SPEC §5 from update series
// and replayed estimates: per-page moments and the Poisson screen (CoV, a
// Lilliefors-style KS test), dependence (autocorrelation with its power-law
// fit, Hurst exponents by R/S, aggregated variance, DFA, GPH and local
// Whittle), maximum-likelihood tail fits, the WMRD/KS error tables and the
// method recommendation, and hands them to reports as tables and figures.
//
// It does not replay crawlers or estimate G_U itself (that is replay) and
// it does not render anything (that is reports): it reads a dataset and an
// optional replay directory (ReadReplay) and puts its tables and figures
// in a results directory through internal/tables (tables.WriteResults,
// FileWriter), returning the NHPP and staleness bundles to a caller that
// writes them apart (Options.LocalizedApart). Command is revisit
// analyze: the command line binds its flags to CommandOptions and calls
// it.
package analysis
