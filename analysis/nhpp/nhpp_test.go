package nhpp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// powerLaw draws the first n event times of a power-law process with
// Λ(t) = (t/η)^β by time transformation: if E_1 < E_2 < … are the arrival
// times of a unit-rate Poisson process, t_i = Λ^{−1}(E_i) = η E_i^{1/β}.
func powerLaw(rng *rand.Rand, n int, beta, eta float64) []float64 {
	t := make([]float64, n)
	e := 0.0
	for i := range t {
		e += rng.ExpFloat64()
		t[i] = eta * math.Pow(e, 1/beta)
	}
	return t
}

// β is recovered, and at small n the bias-corrected β̃ = (n−2)/n β̂ is
// better than the raw MLE. For failure-truncated data 2nβ/β̂ ~ χ²_{2(n−1)},
// so E[β̂] = nβ/(n−2) (2.5 for n = 10, β = 2) and
// sd(β̂) = 2nβ·sqrt(2/((ν−2)²(ν−4))) with ν = 2(n−1) (0.945 here): with
// 4,000 replications the standard error of the mean is 0.015, and the
// tolerances below are 4 of them.
func TestBetaRecoveredCorrectedBetter(t *testing.T) {
	const n, beta, eta, reps = 10, 2.0, 3.0, 4000
	rng := model.NewRand(7, 0)
	var sumRaw, sumCor, seRaw, seCor float64
	var lamRaw, lamCor float64
	for r := 0; r < reps; r++ {
		ts := powerLaw(rng, n, beta, eta)
		w := FitWeibull(ts)
		sumRaw += w.Beta
		sumCor += w.BetaCorrected()
		seRaw += (w.Beta - beta) * (w.Beta - beta)
		seCor += (w.BetaCorrected() - beta) * (w.BetaCorrected() - beta)
		// λ at the last event, relative to the true intensity
		// λ(t) = (β/η)(t/η)^{β−1}.
		truth := beta / eta * math.Pow(ts[n-1]/eta, beta-1)
		lamRaw += w.Cumulative().Intensity(ts[n-1]) / truth
		lamCor += w.Corrected().Intensity(ts[n-1]) / truth
	}
	mRaw, mCor := sumRaw/reps, sumCor/reps
	if math.Abs(mRaw-2.5) > 0.06 {
		t.Errorf("mean β̂ = %.4f, theory nβ/(n−2) = 2.5", mRaw)
	}
	if math.Abs(mCor-beta) > 0.06 {
		t.Errorf("mean β̃ = %.4f, want β = 2", mCor)
	}
	if !(seCor < seRaw) {
		t.Errorf("MSE of β̃ %.4f not below MSE of β̂ %.4f", seCor/reps, seRaw/reps)
	}
	// The intensity at t_n: the raw λ̂(t_n) = nβ̂/t_n overshoots (β̂ is
	// biased up); λ̌ shrinks both β and the level.
	bRaw, bCor := math.Abs(lamRaw/reps-1), math.Abs(lamCor/reps-1)
	t.Logf("n=%d: mean β̂ %.3f, β̃ %.3f; MSE β̂ %.3f, β̃ %.3f; mean λ̂(t_n)/λ %.3f, λ̌(t_n)/λ %.3f",
		n, mRaw, mCor, seRaw/reps, seCor/reps, lamRaw/reps, lamCor/reps)
	if !(bCor < bRaw) {
		t.Errorf("relative bias of λ̌(t_n) %.3f not below λ̂(t_n)'s %.3f", bCor, bRaw)
	}
}

// At large n both estimates converge: β̂ within 4 standard errors
// (sd ≈ β/√n) of β for n = 2,000, and the intensity at mid-window within
// 10 %.
func TestLargeNRecovery(t *testing.T) {
	for _, beta := range []float64{0.5, 1, 2.5} {
		rng := model.NewRand(8, uint64(beta*10))
		ts := powerLaw(rng, 2000, beta, 5)
		w := FitWeibull(ts)
		if se := beta / math.Sqrt(2000); math.Abs(w.Beta-beta) > 4*se {
			t.Errorf("β=%g: β̂ = %.4f (se %.4f)", beta, w.Beta, se)
		}
		mid := ts[999]
		truth := beta / 5 * math.Pow(mid/5, beta-1)
		if got := w.Corrected().Intensity(mid); math.Abs(got/truth-1) > 0.1 {
			t.Errorf("β=%g: λ̌(t_1000) = %.4g, truth %.4g", beta, got, truth)
		}
	}
}

// Duane on a deterministic power law t_i = η i^{1/β}: MTBU = t/i =
// η^β t^{1−β}, so γ = 1 − β and α = η^β exactly, and rebuilding the times
// from Λ(t) = t^{1−γ}/α gives them back (SSE 0). The homogeneous MLE on
// equally spaced times t_i = 2i is exact too, and so is the naive baseline
// (every visit at 2k finds the update at 2k: X = K = n, rate n/(2n)),
// while Matloff is undefined (X = K).
func TestDeterministicHandCases(t *testing.T) {
	const beta, eta = 1.7, 3.0
	ts := make([]float64, 20)
	for i := range ts {
		ts[i] = eta * math.Pow(float64(i+1), 1/beta)
	}
	d := FitDuane(ts)
	if math.Abs(d.Gamma-(1-beta)) > 1e-12 || math.Abs(d.Alpha-math.Pow(eta, beta)) > 1e-9 {
		t.Errorf("Duane γ=%g α=%g, want %g %g", d.Gamma, d.Alpha, 1-beta, math.Pow(eta, beta))
	}
	if sse := RebuildSSE(ts, d.Cumulative()); sse > 1e-18*float64(len(ts)) {
		t.Errorf("Duane rebuild SSE %g, want 0", sse)
	}
	eq := make([]float64, 10)
	for i := range eq {
		eq[i] = 2 * float64(i+1)
	}
	if sse := RebuildSSE(eq, Poisson(eq)); sse > 1e-20 {
		t.Errorf("Poisson rebuild SSE %g, want 0", sse)
	}
	b := FitBaselines(eq, 0)
	if b.Tau != 2 || b.K != 10 || b.X != 10 || b.Naive != 0.5 || !math.IsNaN(b.Matloff) {
		t.Errorf("baselines %+v: want τ=2, K=X=10, naive 0.5, Matloff NaN", b)
	}
	// Cho–GM: −(1/2) ln(0.5/10.5) = ln(21)/2.
	if math.Abs(b.ChoGM-math.Log(21)/2) > 1e-12 {
		t.Errorf("Cho–GM %g, want ln(21)/2", b.ChoGM)
	}
	// Hand-computed MLE: t = 1, 2, 4 → Σ ln(4/t_i) = ln 4 + ln 2 = 3 ln 2,
	// β̂ = 3/(3 ln 2), η̂ = 4/3^{ln 2}.
	w := FitWeibull([]float64{1, 2, 4})
	if math.Abs(w.Beta-1/math.Ln2) > 1e-12 || math.Abs(w.Eta-4/math.Pow(3, math.Ln2)) > 1e-12 {
		t.Errorf("Weibull %+v", w)
	}
}

// Prediction by hand. Equally spaced events 1…10: the Poisson MLE on the
// first k events is Λ(t) = t, so from c = 4 it visits at 5, 6, …, 10 and
// finds an update each time: 6 visits, 6 detected, precision 1. With
// events 1, 2, 3, 4, 10 it visits 5, 6, 7, 8, 9 (premature: Λ stays t
// since the known events do not change) and 10 (detected): precision 1/6.
func TestPredictByHand(t *testing.T) {
	eq := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	p := Predict(eq, Predictors[3])
	if p.Visits != 6 || p.Detected != 6 || p.Premature != 0 || p.Updates != 6 {
		t.Errorf("equally spaced: %+v", p)
	}
	p = Predict([]float64{1, 2, 3, 4, 10}, Predictors[3])
	if p.Visits != 6 || p.Detected != 1 || p.Premature != 5 || math.Abs(p.Precision()-1.0/6) > 1e-12 {
		t.Errorf("gap: %+v", p)
	}
}

// Windows split where the generated rate changes direction. The page's
// first 300 events follow a power law with β = 3 (rate rising, MTBU
// falling); from the 300th event on, a fresh power law with β = 0.5 whose
// scale η₂ = 10·t_300/300 puts its rate below the page's average rate
// after its first event (then falling: MTBU rising). Most events of each
// phase must lie in windows of the matching state, and a window boundary
// must lie within 10 % of the phase length of the change.
func TestWindowsSplitAtDirectionChange(t *testing.T) {
	const n1, n2 = 300, 300
	for seed := uint64(1); seed <= 5; seed++ {
		rng := model.NewRand(seed, 99)
		times := []float64{0}
		times = append(times, powerLaw(rng, n1, 3, 100)...)
		t1 := times[n1]
		for _, x := range powerLaw(rng, n2, 0.5, 10*t1/n1) {
			times = append(times, t1+x)
		}
		ws, err := Windows(times, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		okPhase1, okPhase2, near := 0, 0, false
		for _, w := range ws {
			for e := w.Origin + 1; e <= w.End; e++ {
				if e <= n1 && w.State == Decreasing {
					okPhase1++
				}
				if e > n1 && w.State == Increasing {
					okPhase2++
				}
			}
			if abs(w.End-n1) <= n1/10 {
				near = true
			}
			if w.N() < MinWindow && len(ws) > 1 {
				t.Errorf("seed %d: window %+v shorter than %d survived merging", seed, w, MinWindow)
			}
		}
		if f1, f2 := float64(okPhase1)/n1, float64(okPhase2)/n2; f1 < 0.8 || f2 < 0.8 || !near {
			t.Errorf("seed %d: %d windows %v; phase 1 in decreasing windows %.2f, phase 2 in increasing %.2f, boundary near %d: %v",
				seed, len(ws), ws, f1, f2, n1, near)
		}
	}
}

// Windows are contiguous and cover every event exactly once, also on a
// homogeneous Poisson page (where many short noisy windows get merged).
func TestWindowsCover(t *testing.T) {
	rng := model.NewRand(5, 0)
	times := []float64{0}
	for i := 0; i < 500; i++ {
		times = append(times, times[len(times)-1]+rng.ExpFloat64())
	}
	ws, err := Windows(times, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if ws[0].Origin != 0 || ws[len(ws)-1].End != 500 {
		t.Fatalf("windows do not span the page: %v", ws)
	}
	for i := 1; i < len(ws); i++ {
		if ws[i].Origin != ws[i-1].End {
			t.Fatalf("gap or overlap between %v and %v", ws[i-1], ws[i])
		}
	}
	for _, w := range ws {
		if w.N() < MinWindow {
			t.Errorf("short window %v", w)
		}
	}
	if _, err := Windows([]float64{0, 1, 1}, 0.1); err == nil {
		t.Error("non-increasing times accepted")
	}
	if _, err := Windows(times, 0); err == nil {
		t.Error("θ = 0 accepted")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// The prefix-sum fits equal the direct ones on every prefix (same formula,
// summed in a different order: equal to 1e-9 relative).
func TestPrefixMatchesDirect(t *testing.T) {
	ts := powerLaw(model.NewRand(4, 0), 200, 1.3, 2)
	p := NewPrefix(ts)
	for k := 2; k <= len(ts); k++ {
		a, b := p.Weibull(k), FitWeibull(ts[:k])
		c, d := p.Duane(k), FitDuane(ts[:k])
		if math.Abs(a.Beta/b.Beta-1) > 1e-9 || math.Abs(a.Eta/b.Eta-1) > 1e-9 ||
			math.Abs(c.Gamma-d.Gamma) > 1e-9 || math.Abs(c.Alpha/d.Alpha-1) > 1e-9 {
			t.Fatalf("k=%d: prefix %+v %+v, direct %+v %+v", k, a, c, b, d)
		}
	}
}

// Short windows are merged half left, half right: a 3-event window between
// two long ones gives its first event (3/2 = 1, rounded down) to the left
// and the other two to the right; at either end everything goes to the
// only neighbour.
func TestMergeHalfLeftHalfRight(t *testing.T) {
	cases := []struct {
		in, want []Window
	}{
		{[]Window{{0, 5, Decreasing}, {5, 8, Constant}, {8, 14, Increasing}},
			[]Window{{0, 6, Decreasing}, {6, 14, Increasing}}},
		{[]Window{{0, 3, Constant}, {3, 10, Increasing}},
			[]Window{{0, 10, Increasing}}},
		{[]Window{{0, 6, Decreasing}, {6, 8, Constant}},
			[]Window{{0, 8, Decreasing}}},
		{[]Window{{0, 2, Constant}}, []Window{{0, 2, Constant}}},
	}
	for _, c := range cases {
		got := merge(append([]Window(nil), c.in...))
		if len(got) != len(c.want) {
			t.Errorf("merge(%v) = %v, want %v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("merge(%v) = %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
}
