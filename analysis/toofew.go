package analysis

import "fmt"

// Small samples. A statistic computed on too few
// intervals is reported as "too few" with its threshold, and no number:
// the human tables print the note, the machine-readable cells are empty
// (NaN → null in JSON, empty in CSV, null in Parquet). n below is the
// number of inter-update intervals of a page (its updates − 1).
//
//   - tail fits (MLE of the four families, AIC, KS distance):
//     n ≥ MinFitIntervals;
//   - the Lilliefors KS test against the exponential: the Poisson screen's
//     K, n ≥ K − 1 (pages with fewer updates are not screened at all);
//   - Hurst exponents, every estimator including H(ACF): n ≥ MinHurstLen;
//   - the measured errors behind a recommendation: pages with
//     n ≥ MinEvidenceIntervals (EvidenceSummary).

// MinFitIntervals is the smallest number of positive intervals the tail
// fits are reported for: with fewer, two-parameter MLEs (Pareto, Weibull,
// lognormal) are ill-determined (a Lomax fit to 5 points runs off to its
// boundary) and AIC differences between the families are noise.
const MinFitIntervals = 10

// MinEvidenceIntervals is the smallest number of intervals a replayed page
// must have for its errors to count as evidence for a recommendation: on a
// shorter path every estimator sees a handful of update cycles and the
// ranking of methods is noise (SPEC §3's selection of pages with ≥ 100
// updates).
const MinEvidenceIntervals = 99

// tooFew is the note of a statistic left out for lack of data.
func tooFew(n, min int) string {
	return fmt.Sprintf("too few (%d < %d intervals)", n, min)
}
