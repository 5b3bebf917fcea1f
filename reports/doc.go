// Package reports renders a tables.Bundle (the tables and figures that the
// computing stages leave in results directories) as a self-contained report
// directory: index.html with inline SVG figures, and one Markdown, CSV and
// LaTeX (booktabs) file per table plus an SVG and a CSV per figure (SPEC §7).
//
// It knows nothing about what a table means: it prints cells by their
// column's Kind (humanized for people, full precision in CSV) and plots
// curves by the figure's flags; it computes no statistics.
package reports
