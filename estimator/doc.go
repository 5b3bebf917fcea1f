// Package estimator holds the estimators of the update distribution of
// SPEC §4: functions and types from what a crawler observes — visit times
// s_j, change indicators Q_{j−1,j}, ages A(s_j) — to estimates of the age
// distribution G_U, the interval distribution F_U and Poisson rates. It
// knows nothing of where the observations come from: replay's virtual
// crawlers over ground truth and crawllog's real crawl logs both feed it.
//
// The flow is one pass over the visits of one crawl:
//
//	Obs (one visit: s_j, A(s_j), Q_{j−1,j}, update cycle)  obs.go
//	  → Path (every selected method that applies to the sampler,
//	    fed in visit order by Path.Observe)                  path.go
//	  → Path.Finish → []Estimate (one row per method and kind: G_U or F_U,
//	    on the grid x_n = nΔ or y_n = nh)                    path.go
//
// EstimateObserved (observed.go) is that pass over a real crawler's
// observations of one URL (series.Observed: whole-second visit times with
// Last-Modified times or change bits), with the grid and the constant
// delays chosen per URL (ObservedDefaults).
//
// # Methods
//
// Notation as in SPEC and docs/methods.md: visits s_1 < … < s_m, age
// A(s_j) = s_j − u_{N(s_j)}, Q_ij = 1 when an update lies in (s_i, s_j],
// constant delays Δ with grid x_n = nΔ and A⁺ = Δ⌈A/Δ⌉, random delays with
// bins y_n = nh and y° = h⌈y/h⌉.
//
//	age sampling (age.go)
//	  M1    ECDF of A(s_j) where Q_{j,j+1} = 1 → Ḡ_1(x) = E[G_U(x+S) − G_U(x)]/E[G_U(S)] (biased)
//	  M2    Ĝ_2(x_n) = #{j : A(s_j) ≤ x_n}/m → G_U (consistent)
//	comparison sampling (compare.go)
//	  M3    ECDF of D_k = (r_{k+1} − r_k)Δ between detections → 1 − Ḡ_3, E[D_3] = Δ/G_U(Δ) (biased)
//	  M4    ECDF of a_j = Δ if Q_{j−1,j} else a_{j−1} + Δ (= A⁺(s_j)) → G_U(x_n)
//	  M5    G_5(x_n) = Σ_k min(x_n, D_k)/Σ_k D_k → G_U(x_n)
//	  G-M4  ECDF of s_j − s*_j, s*_j = max{s_k : k < j, Q_kj = 1} (biased for random delays)
//	pairs of visits (m6.go)
//	  M6    G_6(y_n) = Z(y_n)/W(y_n): pairs at distance y_n with Q_ij = 1 over all pairs → G_U as h → 0
//	Poisson baselines (poisson.go), λ̂ and its exponential 1 − e^{−λ̂x} (ExpCDF)
//	  naive        λ̂ = X/(s_m − s_1)                                           Naive
//	  cho          λ̂ = −(1/τ) ln((n − X + 0.5)/(n + 0.5))                      ChoGarciaMolina
//	  matloff      λ̂ = −(1/τ) ln(1 − X/n)                                       Matloff
//	  age-mle      λ̂ = m / Σ_j A(s_j)                                           AgeMLE
//	  poisson-mle  λ̂ maximises Π_j (1 − e^{−λτ_j})^{c_j} e^{−λτ_j(1−c_j)}       IrregularMLE
//	F_U recovery (recover.go)
//	  F_U(x) = 1 − g_U(x)/g_U(0), g_U the numerical derivative of Ĝ_U          RecoverF
//
// Beside them: the closed forms the simulations are checked against
// (theory.go: ExpectG = E[G_U(x+S)], KeptFraction, M1Tail, M3Tail,
// MeanD3); the crawler's sampling process F_S, its specs and the sampler
// labels of the estimates (sampler.go: Sampler, ParseSampler, SamplerSpec,
// ParseSamplerSpec); the rule by which errors against the truth are
// summarised over pages (errors.go: SummarizeErrors; the measures WMRD and
// KS themselves are series.WMRD and series.KS); the bounds on the work of
// one crawl and the Guard that enforces them (limits.go).
//
// # The registry
//
// The estimators are a table, Registry (methods.go): one Method descriptor
// each (name, whether it needs ages or only change indicators, constant
// delays only, step function, class unbiased/biased/Poisson baseline,
// whether F_U is recovered from it, and its constructor on a Crawl).
// Replay, the estimate command, analysis and the --methods help texts read
// it, so an estimator is added by one descriptor and its code (see the
// example of Registry.With, which runs one through replay and analysis).
//
// # What is not here
//
// The virtual crawler, Run and Simulate are package replay; reading crawl
// logs and estimating them is package crawllog; the Estimate rows' file,
// estimates.parquet, is package estimates. This package imports only
// earlier stages (series, model, transform) and no reader of any input:
// the observations it estimates are series.Observed, which crawllog/logs
// reads from real logs and replay's crawlers produce, so every later stage
// can use it.
package estimator
