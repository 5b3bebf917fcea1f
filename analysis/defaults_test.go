package analysis

import (
	"math"
	"testing"
)

// Options' zero values take the Default constants revisit analyze's
// flags start from: one definition of each.
func TestOptionsDefaults(t *testing.T) {
	var o Options
	o.defaults()
	if o.Top != DefaultTop || o.Closest != DefaultClosest || o.AggregateMax != DefaultAggregateMax || o.Extra != DefaultExtra {
		t.Errorf("Options defaults: top %d, closest %d, aggregate-max %d, extra %d; want %d, %d, %d, %d",
			o.Top, o.Closest, o.AggregateMax, o.Extra, DefaultTop, DefaultClosest, DefaultAggregateMax, DefaultExtra)
	}
}

// The screen's defaults hold the reasons their doc comments give.
func TestScreenDefaultsReasons(t *testing.T) {
	var o ScreenOptions
	o.defaults()
	if o.MinUpdates != DefaultScreenUpdates || o.Band != DefaultBand || o.MaxLag != DefaultMaxLag || o.Reps != DefaultReps {
		t.Fatalf("ScreenOptions defaults %+v, want the Default constants", o)
	}
	// p = (1 + #{D_sim ≥ D})/(reps + 1): Significance is one of the
	// p-values reps replicates can give.
	if k := Significance * float64(DefaultReps+1); math.Abs(k-math.Round(k)) > 1e-9 {
		t.Errorf("Significance·(DefaultReps+1) = %g, not a whole number of replicates", k)
	}
	if LRDLevel != Significance {
		t.Errorf("LRDLevel %g, Significance %g", LRDLevel, Significance)
	}
	// 2.5 % of the resamples beyond each end of the 95 % interval: 50.
	if got := 0.025 * BootstrapResamples; got != 50 {
		t.Errorf("resamples beyond each end of the 95%% interval: %g, want 50", got)
	}
}
