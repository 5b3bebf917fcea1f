package mediawiki_test

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/ingest/mediawiki"
	"github.com/revisit-dev/revisit/ingest/source"
)

func Example() {
	dump := `<mediawiki version="0.10">
  <siteinfo><dbname>enwiki</dbname></siteinfo>
  <page>
    <title>AccessibleComputing</title><ns>0</ns><id>10</id>
    <redirect title="Computer accessibility" />
    <revision><id>2</id><timestamp>2002-02-25T15:51:15Z</timestamp><text bytes="9" /></revision>
    <revision><id>1</id><timestamp>2001-01-21T02:12:21Z</timestamp>
      <contributor><ip>127.0.0.1</ip></contributor><minor/>
      <text xml:space="preserve">The text is skipped, never kept.</text></revision>
  </page>
</mediawiki>`
	r := mediawiki.NewReader(strings.NewReader(dump), mediawiki.Options{Options: source.Options{File: "example.xml"}})
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %d %q ns=%d group=%s redirect=%v\n", p.Source, p.ID, p.Title, p.Namespace, p.Group, p.Redirect)
		for i, t := range p.Revisions {
			fmt.Println(" ", time.Unix(t, 0).UTC().Format(time.RFC3339), "anonymous:", p.Anonymous[i], "minor:", p.Minor[i])
		}
	}
	// Output:
	// enwiki 10 "AccessibleComputing" ns=0 group=(Main) redirect=true
	//   2002-02-25T15:51:15Z anonymous: false minor: false
	//   2001-01-21T02:12:21Z anonymous: true minor: true
}
