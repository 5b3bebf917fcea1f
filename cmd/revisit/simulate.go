package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
)

func newSimulateCmd(g *globals) *cobra.Command {
	var (
		opt       replay.SimCommandOptions
		noRecover bool
	)
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Convergence of every estimator on synthetic renewal processes (methods: docs/methods.md)",
		Long: `simulate draws renewal update processes with intervals from --update, starting
with an update at time 0, crawls each for a window of length T with every
--sampler, runs the estimators (as replay does) and prints:

  - convergence: mean WMRD and KS of each method against the closed-form
    G_U (kind G) or F_U (kind F, recovered from M2, M4, M5, M6 and the
    Poisson baselines) per T, with the half-width of a 95 % interval over
    --paths paths; for the biased M1 and M3 also their errors against their
    closed-form limits 1 − Ḡ_1 and 1 − Ḡ_3;
  - checks: M1's kept fraction p against E[G_U(S)], M3's mean sample against
    E[D_3] = Δ/G_U(Δ).

With -o DIR the tables and figures (convergence curves, M1/M3 tails against
the model) are also written to DIR/tables and DIR/figures as JSON, section 0,
for 'revisit report'.

Windows (--T): A..B is every power of ten from A to B, or a comma list.
Cost grows with T × λ × paths (T = 10⁷ with const:1 is 10⁷ visits per
path); with random delays M6 also pairs each visit with the λ·x_max visits
before it. Defaults: h = E[U]/10, x_max = the x with G_U(x) = 0.999.

Samplers (--sampler, repeatable; λ per unit of the update model):
  ` + indent(estimator.SamplerSyntax),
		Example: `  revisit simulate --update pareto:3,1 --sampler const:1 --T 1e2..1e5 --paths 20
  revisit simulate --update weibull:0.5,1 --sampler exp:4 --sampler const:0.25 --methods M2,M4,M6 -o out/sim
  revisit simulate --update exp:1 --sampler const:0.5 --T 100,1000,10000 --paths 50 --seed 7`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Recover = !noRecover
			return replay.SimulateCommand(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opt.Update, "update", "pareto:3,1", "update interval distribution `SPEC` (exp:R, pareto:A,B, weibull:K,S, lognormal:M,S, uniform:A,B, const:C, mix:…)")
	f.StringArrayVar(&opt.Samplers, "sampler", []string{"const:1"}, "sampling process `SPEC`, repeatable")
	f.StringVar(&opt.TText, "T", "1e2..1e5", "window lengths: A..B (powers of ten) or a comma list")
	f.IntVar(&opt.Paths, "paths", 20, "independent sample paths per T and sampler")
	f.StringSliceVar(&opt.Methods, "methods", []string{"all"}, "methods: all or a list of "+strings.Join(estimator.AllMethods, ","))
	f.Uint64Var(&opt.Seed, "seed", 1, "random seed (same seed, same output)")
	f.Float64Var(&opt.H, "h", 0, "bin width h for random delays (0: E[U]/10)")
	f.Float64Var(&opt.XMax, "x-max", 0, "largest grid point (0: the 0.999 quantile of G_U)")
	f.BoolVar(&noRecover, "no-recover", false, "do not recover F_U from M2, M4, M5, M6")
	f.IntVar(&opt.Workers, "workers", 0, "parallel workers (0: all cores)")
	f.StringVarP(&opt.Out, "output", "o", "", "also write tables and figures (JSON) under this directory")
	return cmd
}
