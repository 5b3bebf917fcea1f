package yelp_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/ingest/yelp"
)

func Example() {
	reviews := `{"review_id":"r1","business_id":"B","stars":5.0,"text":"Great","date":"2018-10-04 12:00:00"}
{"review_id":"r2","business_id":"A","stars":3.0,"text":"Fine","date":"2017-01-02 08:30:00"}
{"review_id":"r3","business_id":"B","stars":4.0,"text":"Good","date":"2018-11-05 19:00:00"}
`
	businesses := `{"business_id":"A","name":"Soup & Co","city":"Pittsburgh","state":"PA","categories":"Soup"}
{"business_id":"B","name":"Café B","city":"Las Vegas","state":"NV","categories":null}
`
	kind, _ := yelp.Sniff([]byte(strings.SplitN(reviews, "\n", 2)[0]))
	fmt.Println("kind:", kind)

	bs, err := yelp.ReadBusinesses(strings.NewReader(businesses), source.Options{File: "business.json"})
	if err != nil {
		panic(err)
	}
	rd, err := yelp.NewReader(strings.NewReader(reviews), source.Options{File: "review.json"})
	if err != nil {
		panic(err)
	}
	rd.SetBusinesses(bs)
	for {
		p, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s (%s): %d reviews\n", p.Title, p.Group, len(p.Revisions))
	}
	st := rd.Stats()
	fmt.Printf("%d %ss of %d businesses, resolution %d s\n", st.Records, st.Kind, st.Businesses, st.Resolution)
	// Output:
	// kind: review
	// Soup & Co (Pittsburgh): 1 reviews
	// Café B (Las Vegas): 2 reviews
	// 3 reviews of 2 businesses, resolution 1 s
}
