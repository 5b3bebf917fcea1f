package jsonscan_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
)

func ExampleMembers() {
	line := []byte(`{"review_id":"r1","business_id":"b\u0031","text":"long text, skipped","date":"2018-10-04 12:00:00"}`)
	err := jsonscan.Members(line, func(key []byte, v jsonscan.Value) error {
		switch string(key) {
		case "business_id", "date":
			fmt.Printf("%s = %s\n", key, v.Str())
		}
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// business_id = b1
	// date = 2018-10-04 12:00:00
	// error: <nil>
}
