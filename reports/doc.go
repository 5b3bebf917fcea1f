// Package reports renders a tables.Bundle (the tables and figures that the
// computing stages leave in results directories) as a self-contained report
// directory: index.html with inline SVG figures, and one Markdown, CSV and
// LaTeX (booktabs) file per table plus an SVG and a CSV per figure (SPEC §7).
//
// It computes no statistics and decides no number's look: it prints cells
// with the one cell formatter of internal/tables (tables.HumanRows for
// people, tables.Machine in CSV) and plots curves by the
// figure's flags, with three exceptions that read table contents: the
// report opens with Headline's findings, sentences computed from the
// tables it recognises by ID (poisson_screen, lrd_verdict,
// tail_fits_aggregate, recommendation, method_evidence, f_recovery,
// staleness_summary, …), whose verdicts (better, worse, long memory, …)
// analysis wrote into them; a method table (one with a "method" or "estimator" column) is shown
// to people ranked by error with its WMRD and KS columns in %; and a
// method, policy or fit family named in a curve is drawn in its fixed
// style. A figure with fewer than two points is replaced by a sentence
// saying why (Unplottable).
//
// Command is 'revisit report': the results directories read and merged,
// then Write, and the Findings printed for the terminal (WriteFindings).
package reports
