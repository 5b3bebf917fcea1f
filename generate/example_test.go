package generate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/units"
)

// A page updated every 24 hours over a 3-day window: created at the start,
// then updated at +24 h and +48 h.
func ExampleGenerator() {
	ms, _ := generate.ParseModels([]string{"const:24"}, 3600)
	g, err := generate.NewGenerator(generate.Config{Pages: 1, Models: ms, Seed: 1,
		Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Span: 3 * units.Day, UnitName: "h", Unit: 3600})
	if err != nil {
		fmt.Println(err)
		return
	}
	var p generate.Page
	if err := g.Page(0, &p); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Title, p.Process)
	for _, u := range p.Updates {
		fmt.Println(time.Unix(u, 0).UTC().Format(time.RFC3339))
	}
	// Output:
	// Generated page 1 const:24
	// 2020-01-01T00:00:00Z
	// 2020-01-02T00:00:00Z
	// 2020-01-03T00:00:00Z
}

// Run writes a corpus and its truth; ReadTruth gives the truth back.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "generate-example")
	defer os.RemoveAll(dir)
	ms, _ := generate.ParseModels([]string{"const:12"}, 3600)
	_, err := generate.Run(generate.Options{
		Config: generate.Config{Pages: 2, Models: ms, Seed: 1,
			Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Span: units.Day, UnitName: "h", Unit: 3600},
		Format: generate.FormatParquet, Out: filepath.Join(dir, "ds"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := generate.ReadTruth(filepath.Join(dir, "ds", generate.TruthFile))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range tr.Pages { // created at 0 h, updated at 12 h: 2 updates, E[U] = 12 h
		fmt.Println(p.ID, p.Process, p.Updates, *p.MeanInterval, p.ClosedFormG)
	}
	fmt.Println(tr.Totals.Updates, "updates")
	// Output:
	// 1 const:12 2 12 true
	// 2 const:12 2 12 true
	// 4 updates
}
