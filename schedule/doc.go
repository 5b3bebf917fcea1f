// Package schedule turns estimated update distributions into revisit
// plans: per-page visit rates f_i under a total budget Σ f_i ≤ B (and
// optional per-host limits) that maximise the importance-weighted
// time-averaged freshness Σ w_i F_i(f_i), with F(f) = f ∫₀^{1/f} (1 − G_U)
// for a page visited every Δ = 1/f at a phase independent of its updates
// (SPEC §4.6, docs/methods.md#schedule). It also computes the classic
// Poisson plans (uniform, proportional, Cho–Garcia-Molina, LambdaCrawl) and
// the realised freshness of a plan on true update times.
//
// It is not an estimator and not a crawler: its core works on plain
// slices (grids, CDF values, rates), and only input.go knows where the
// estimates come from. Command (command.go) is revisit schedule: its
// options checked before any work, the input opened, and the plans or
// their validation printed and written.
package schedule
