package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic"
)

// Counts in error messages have thousands separators (byte offsets, line
// numbers and ids do not): a revision cap of 1,000 and a line cap of
// 1,000 bytes, passed by each reader.
func TestMessagesCountsHaveSeparators(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	var csvText, yelpText strings.Builder
	csvText.WriteString("id,time\n")
	for i := 0; i < 1001; i++ {
		csvText.WriteString("a,2020-01-01\n")
		yelpText.WriteString(`{"review_id":"r","user_id":"u","business_id":"B1","date":"2018-01-01 10:00:00"}` + "\n")
	}
	half := strings.Repeat("b,2020-01-01\n", 600)
	long := strings.Repeat("x", 2000)
	gen := generic.Options{ID: "id", Time: "time"}
	for _, c := range []struct {
		name   string
		inputs []string
		opt    Options
		want   string
	}{
		{"generic over the revision cap", []string{write("cap.csv", csvText.String())}, Options{MaxRevisionsPerPage: 1000, Generic: gen},
			"more than 1,000 revisions (--max-revisions-per-page)"},
		{"yelp over the revision cap", []string{write("yelp_academic_dataset_review.json", yelpText.String())}, Options{MaxRevisionsPerPage: 1000},
			"more than 1,000 timestamps (--max-revisions-per-page)"},
		{"merged inputs over the cap", []string{write("h1.csv", "id,time\n"+half), write("h2.csv", "id,time\n"+half)}, Options{MaxRevisionsPerPage: 1000, Generic: gen},
			"1,200 revisions with the earlier inputs, more than the limit of 1,000 (--max-revisions-per-page)"},
		{"long JSON line", []string{write("long.jsonl", `{"id":"`+long+`","time":"2020-01-01"}`+"\n")}, Options{MaxLineBytes: 1000, Generic: gen},
			"line of 2,029 bytes is longer than the limit of 1,000 bytes (--max-line-bytes)"},
		{"long CSV record", []string{write("long.csv", "id,time\n"+long+",2020-01-01\n")}, Options{MaxLineBytes: 1000, Generic: gen},
			"CSV record longer than the limit of 1,000 bytes (--max-line-bytes)"},
		{"long jsonkeys object", []string{write("fr.json", `{"2020-01-01T00:00:00Z": "`+long+`"}`)}, Options{MaxLineBytes: 1000, Generic: generic.Options{Format: "jsonkeys", IDFromFileName: true}},
			"the JSON object of 2,028 bytes is longer than the limit of 1,000 bytes (--max-line-bytes)"},
	} {
		c.opt.Inputs, c.opt.Output = c.inputs, filepath.Join(dir, "ds")
		_, err := Run(t.Context(), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
}
