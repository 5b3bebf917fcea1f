package estimator

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// naive at irregular delays is λ̂ = X/(s_m − s_1), as docs/methods.md#naive
// says (it gave only X/(nτ), for constant delays). By hand: visits at 0,
// 1, 3, 7 and 8 h, changes seen at the 3rd and 5th: X = 2 over 8 h,
// λ̂ = 0.25/h.
func TestNaiveIrregularAsDocumented(t *testing.T) {
	o := &series.Observed{ID: "u", Visits: []series.Visit{{T: 0}, {T: 3600}, {T: 3 * 3600, Changed: true}, {T: 7 * 3600}, {T: 8 * 3600, Changed: true}}}
	est, info, err := EstimateObserved(context.Background(), o, ObservedConfig{Config: Config{Methods: []string{MethodNaive}}, Unit: transform.Hour})
	if err != nil || info.Constant || len(est) == 0 {
		t.Fatalf("%v, constant %v, %d rows", err, info.Constant, len(est))
	}
	if est[0].Rate != 0.25 {
		t.Errorf("naive λ̂ = %g/h, want X/(s_m − s_1) = 2/8 = 0.25", est[0].Rate)
	}
	doc, err := os.ReadFile("../docs/methods.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), `<a id="naive"></a>`)
	if i < 0 || !strings.Contains(string(doc[i:min(len(doc), i+600)]), "X / (s_m − s_1)") {
		t.Error("docs/methods.md#naive does not give naive's rate at irregular delays, X / (s_m − s_1)")
	}
}
