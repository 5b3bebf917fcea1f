package generic_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
)

func Example() {
	log := `path,commit,commit_time_utc
README.md,a1,2024-07-28T22:17:25Z
"data, raw.json",b2,2024-06-19T05:12:49Z
README.md,c3,2024-06-01T00:00:00Z
`
	rd, err := generic.NewReader(strings.NewReader(log),
		generic.Options{ID: "path", Time: "commit_time_utc", Source: "git"},
		source.Options{File: "commits.csv"})
	if err != nil {
		panic(err)
	}
	for {
		p, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d updates, resolution %d s\n", p.Title, len(p.Revisions), p.Resolution)
	}
	st := rd.Stats()
	fmt.Printf("%s with %s times: %d records, %d objects, %d bad\n", st.Format, st.TimeLayout, st.Records, st.Objects, st.Bad)
	// Output:
	// README.md: 2 updates, resolution 1 s
	// data, raw.json: 1 updates, resolution 1 s
	// csv with iso times: 3 records, 2 objects, 0 bad
}

func ExampleNewReader_skipBad() {
	log := "id,t\na,2020-01-01\nb,not a date\na,2020-01-03\n"
	rd, _ := generic.NewReader(strings.NewReader(log), generic.Options{ID: "id", Time: "t"},
		source.Options{File: "log.csv", SkipBad: true, OnBad: func(e *source.ParseError) { fmt.Println("skipped:", e) }})
	p, _ := rd.Next()
	fmt.Println(p.Title, len(p.Revisions), "updates; resolution", p.Resolution)
	// Output:
	// skipped: log.csv line 3 at byte 18 (page "b"): column "t": timestamp does not parse: "not a date": want YYYY-MM-DD[ HH:MM:SS]
	// a 2 updates; resolution 86400
}
