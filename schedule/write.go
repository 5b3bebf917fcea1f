package schedule

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
)

// Output file names.
const (
	ParquetFile = "schedule.parquet"
	CSVFile     = "schedule.csv"
)

// scheduleSchema is schedule.parquet: one row per page and plan, the
// plans of a page together, pages in input order.
var scheduleSchema = arrow.NewSchema([]arrow.Field{
	{Name: "page_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "title", Type: arrow.BinaryTypes.String},
	{Name: "importance", Type: arrow.PrimitiveTypes.Float64},
	{Name: "plan", Type: arrow.BinaryTypes.String},
	{Name: "visits_per_day", Type: arrow.PrimitiveTypes.Float64},
	{Name: "delta_s", Type: arrow.PrimitiveTypes.Float64}, // revisit interval Δ in seconds (+Inf: never)
	{Name: "fresh_g", Type: arrow.PrimitiveTypes.Float64}, // predicted freshness φ(Δ) under Ĝ
	{Name: "fresh_poisson", Type: arrow.PrimitiveTypes.Float64},
	{Name: "lambda_per_day", Type: arrow.PrimitiveTypes.Float64}, // λ̂
	{Name: "note", Type: arrow.BinaryTypes.String},
}, nil)

// Row groups of schedule.parquet: at least minGroupRows rows (16 Ki
// rows, 2,730 pages of six plans, hold about 2 MiB in the record
// builder; the peak of writing grows with the group),
// and at most maxGroups of them: the writer keeps every row group's
// metadata (about 10 KiB for the ten columns) until it closes the file,
// 66 MiB for the 6,600 groups of 16 Ki rows of 18 M pages. 1,024 groups
// balance the two at 18 M pages (105 Ki rows a group: about 10 MiB each).
const (
	minGroupRows = 1 << 14
	maxGroups    = 1024
)

// groupRows is the rows per row group for a file of rows rows.
func groupRows(rows int) int { return max(minGroupRows, (rows+maxGroups-1)/maxGroups) }

// Write writes schedule.parquet, schedule.csv (if csv) and the tables and
// figures (tables.Bundle) into dir, which must exist. The rows are
// streamed page by page, each plan's rate computed again from its
// multipliers (Solution.Rate); a Result of PlanSource reads its source
// again for the ids and titles.
func (r *Result) Write(dir string, csv bool) error {
	if err := r.writeRows(dir, csv); err != nil {
		return err
	}
	return r.Bundle().Write(dir)
}

// CSVColumns are the columns of schedule.csv: one row per page, its
// visits per day under each plan in the columns visits_per_day_PLAN
// after these.
var CSVColumns = []string{"page_id", "title", "importance", "lambda_per_day", "note"}

func (r *Result) writeRows(dir string, withCSV bool) (err error) {
	pf, err := os.Create(filepath.Join(dir, ParquetFile))
	if err != nil {
		return err
	}
	pw, err := pq.NewWriter(pf, scheduleSchema, pq.Options{Dictionary: []string{"plan"}})
	if err != nil {
		pf.Close()
		return err
	}
	defer func() {
		if err != nil {
			pw.Abort()
		}
	}()
	var (
		cf *os.File
		bw *bufio.Writer
		cw *csvout.Writer
	)
	if withCSV {
		if cf, err = os.Create(filepath.Join(dir, CSVFile)); err != nil {
			return err
		}
		defer cf.Close()
		bw = bufio.NewWriterSize(cf, 1<<16)
		cw = csvout.NewWriter(bw)
		header := append([]string(nil), CSVColumns...)
		for _, p := range r.Plans {
			header = append(header, "visits_per_day_"+p.Name)
		}
		if err := cw.Header(header...); err != nil {
			return err
		}
	}
	in := r.In
	b := pw.Builder()
	perGroup := groupRows(r.N * len(r.Plans))
	ff := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	err = r.eachPage(func(i int, id int64, title string) error {
		w := 1.0
		if r.W != nil {
			w = r.W[i]
		}
		lambdaDay := r.Lambda(i) / in.Unit * units.Day
		note := r.Note(i)
		if cw != nil {
			cw.Int(id)
			cw.Text(title)
			cw.Value(ff(w))
			cw.Value(ff(lambdaDay))
			cw.Text(note)
		}
		for _, p := range r.Plans {
			f := p.Rate(i)
			fg, fp := r.Predicted(i, f)
			perDay := f / in.Unit * units.Day
			delta := in.Unit / f
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append(title)
			b.Field(2).(*array.Float64Builder).Append(w)
			b.Field(3).(*array.StringBuilder).Append(p.Name)
			b.Field(4).(*array.Float64Builder).Append(perDay)
			b.Field(5).(*array.Float64Builder).Append(delta)
			b.Field(6).(*array.Float64Builder).Append(fg)
			b.Field(7).(*array.Float64Builder).Append(fp)
			b.Field(8).(*array.Float64Builder).Append(lambdaDay)
			b.Field(9).(*array.StringBuilder).Append(note)
			if cw != nil {
				cw.Value(ff(perDay))
			}
			if pw.Pending() >= perGroup {
				if err := pw.Flush(); err != nil {
					return err
				}
			}
		}
		if cw != nil {
			return cw.End()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cw != nil {
		if err := cw.Flush(); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := cf.Close(); err != nil {
			return err
		}
	}
	return pw.Close()
}

// upperFirst is s with its first letter in upper case (ASCII).
func upperFirst(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// Bundle is the tables and figure of the report's "Revisit schedule"
// section: each plan's budget use, predicted freshness and share of the
// budget given to the 10 % fastest pages; freshness against budget.
func (r *Result) Bundle() *tables.Bundle {
	in := r.In
	src := fmt.Sprintf("%s; %d pages; budget %s visits/day", in.Source, r.N, strconv.FormatFloat(PerDay(r.Budget), 'g', 6, 64))
	if r.MinRate > 0 {
		src += fmt.Sprintf("; min rate %g visits/day", PerDay(r.MinRate))
	}
	if r.Hosts > 0 {
		src += fmt.Sprintf("; %d hosts with limits", r.Hosts)
	}
	plans := tables.Table{
		ID: "schedule_plans", Title: "Revisit plans under the budget", Source: src,
		Section: tables.SectionSchedule, Order: 1,
		Notes: []string{
			"Predicted freshness: the importance-weighted mean of φ(Δ) = (1/Δ)∫₀^Δ (1 − G(t)) dt over the pages, under the estimated Ĝ (projected onto concave CDFs) and under the Poisson model with the estimated λ̂ (docs/methods.md#schedule).",
			"The gu plan maximises the freshness under Ĝ; the others are the classic plans computed from λ̂ alone. Under Ĝ gu is best by construction: realised freshness on true series needs a validation against truth.",
		},
		Columns: []tables.Column{
			{Name: "plan", Kind: tables.String},
			{Name: "pages visited", Kind: tables.Int},
			{Name: "visits/day used", Kind: tables.Float},
			{Name: "freshness under Ĝ", Kind: tables.Percent},
			{Name: "freshness under Poisson", Kind: tables.Percent},
			{Name: "budget to the 10% fastest", Kind: tables.Percent, Doc: "share of the visits given to the 10 % of pages with the largest λ̂"},
			{Name: "budget to pages on the prior", Kind: tables.Percent, Doc: "share of the visits given to the pages planned on the corpus's prior (no usable estimate, or no change seen)"},
		},
	}
	for _, s := range []string{r.ImportanceStats.Summary(), r.HostStats.Summary()} {
		if s != "" {
			plans.Notes = append(plans.Notes, upperFirst(s)+".")
		}
	}
	if r.Unchanged > 0 {
		plans.Notes = append(plans.Notes, fmt.Sprintf("%d of %d pages never changed or have no usable estimate (Ĝ ≡ 0 or λ̂ = 0): every plan but uniform gives them the min rate, %g visits/day.", r.Unchanged, r.N, PerDay(r.MinRate)))
	}
	if r.OnPrior > 0 {
		pr := r.prob.prior
		plans.Notes = append(plans.Notes, fmt.Sprintf("%d of %d pages have no usable estimate or showed no change: they are planned on the corpus's prior, the mean Ĝ of %d pages with estimates (mean λ̂ %.4g visits/day), stretched to the rate λ̃ = m/(1 + mE) of a page watched a time E without a change (docs/methods.md#schedule-prior); the last column is the share of each plan's budget they get.",
			r.OnPrior, r.N, pr.pages, pr.m/in.Unit*units.Day))
	}
	for _, p := range r.Plans {
		if p.Used < r.prob.Budget*(1-1e-9) {
			plans.Notes = append(plans.Notes, fmt.Sprintf("%s spends %.4g of the %.4g visits/day: every page it would visit more is at its host's limit or never changes (saturated).", p.Name, p.Used/in.Unit*units.Day, PerDay(r.Budget)))
		}
	}
	for _, p := range r.Plans {
		plans.Rows = append(plans.Rows, []any{p.Name, p.Visited, p.Used / in.Unit * units.Day, p.MeanG, p.MeanPoisson, p.FastShare, p.PriorShare})
	}
	b := &tables.Bundle{Tables: []tables.Table{plans}}
	if len(r.Sweep) == 0 {
		return b
	}
	sweep := tables.Table{
		ID: "schedule_budget", Title: "Predicted freshness under Ĝ against the budget", Source: src,
		Section: tables.SectionSchedule, Order: 2,
		Columns: []tables.Column{{Name: "visits/day", Kind: tables.Float}},
	}
	fig := tables.Figure{
		ID: "schedule_budget", Title: "Freshness against budget, per plan", Source: src,
		Section: tables.SectionSchedule, Order: 3, XLabel: "budget (visits/day)", YLabel: "freshness under Ĝ", LogX: true,
	}
	for _, p := range r.Plans {
		sweep.Columns = append(sweep.Columns, tables.Column{Name: p.Name, Kind: tables.Percent})
		fig.Curves = append(fig.Curves, tables.Curve{Name: p.Name})
	}
	for _, pt := range r.Sweep {
		row := []any{PerDay(pt.Budget)}
		for k, v := range pt.Fresh {
			row = append(row, v)
			if !math.IsNaN(v) {
				fig.Curves[k].X = append(fig.Curves[k].X, PerDay(pt.Budget))
				fig.Curves[k].Y = append(fig.Curves[k].Y, v)
			}
		}
		sweep.Rows = append(sweep.Rows, row)
	}
	b.Tables = append(b.Tables, sweep)
	b.Figures = append(b.Figures, fig)
	return b
}
