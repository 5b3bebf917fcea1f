package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/series"
)

func Example() {
	dir, _ := os.MkdirTemp("", "ingest-example")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "ds")
	// A small MediaWiki dump: articles (namespace 0) only, the default.
	s, err := ingest.Run(context.Background(), ingest.Options{
		Inputs: []string{"../testdata/mediawiki/filters.xml"},
		Output: out,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pages read", s.Counts.PagesRead, "kept", s.Counts.PagesKept, "skipped for namespace", s.Counts.Skipped["namespace"])
	fmt.Println("revisions kept", s.Counts.RevisionsKept, "updates", s.Counts.Updates, "collapsed", s.Counts.Collapsed)
	r, _ := dataset.Open(out)
	r.Each(func(p *series.Page) error {
		fmt.Printf("%s %d %q group=%s updates=%d first=%s\n", p.Source, p.ID, p.Title, p.Group, p.NUpdates(), p.First().Format("2006-01-02"))
		return nil
	})
	// Output:
	// pages read 5 kept 3 skipped for namespace 2
	// revisions kept 7 updates 6 collapsed 1
	// testwiki 1 "Alpha" group=(Main) updates=3 first=2001-01-01
	// testwiki 3 "Old name" group=(Main) updates=2 first=2001-01-03
	// testwiki 5 "Single" group=(Main) updates=1 first=2005-06-15
}
