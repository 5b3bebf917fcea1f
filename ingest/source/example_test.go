package source_test

import (
	"errors"
	"fmt"

	"github.com/revisit-dev/revisit/ingest/source"
)

// A reader reports bad records through Options.Bad: without SkipBad the
// record comes back as the error; with it, it goes to OnBad and reading
// goes on.
func ExampleOptions_Bad() {
	e := &source.ParseError{Offset: 1234, Page: "Pyrus", Reason: "timestamp",
		Err: fmt.Errorf("revision 7: %w", source.ErrTimestamp)}
	strict := source.Options{File: "dump.xml"}
	fmt.Println(strict.Bad(e))

	n := 0
	lenient := source.Options{File: "dump.xml", SkipBad: true, OnBad: func(*source.ParseError) { n++ }}
	fmt.Println(lenient.Bad(e), n, errors.Is(e, source.ErrTimestamp))
	// Output:
	// dump.xml at byte 1234 (page "Pyrus"): revision 7: timestamp does not parse
	// <nil> 1 true
}

type corrupt struct{}

func (corrupt) Error() string {
	return "big.xml.gz: truncated gzip stream after 99 decompressed bytes: unexpected EOF"
}
func (corrupt) Short() string { return "truncated gzip stream: unexpected EOF" }

// A decompressor's error that names the file itself (it has a Short
// message) becomes a "corrupt" record whose message names the file once.
func ExampleReadError() {
	e := source.ReadError("big.xml.gz", 99, 3, "", corrupt{})
	e.Decompressed = true
	fmt.Println(e.Reason)
	fmt.Println(e)
	// Output:
	// corrupt
	// big.xml.gz line 3 at decompressed byte 99: truncated gzip stream: unexpected EOF
}
