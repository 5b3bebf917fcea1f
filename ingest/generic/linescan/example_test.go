package linescan_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
)

func Example() {
	s := linescan.New(strings.NewReader("first\r\nsecond\nno newline at the end"), 0)
	for {
		line, err := s.Next()
		if err == io.EOF {
			break
		}
		fmt.Printf("line %d at byte %d: %q\n", s.Line(), s.Offset(), line)
	}
	// Output:
	// line 1 at byte 0: "first"
	// line 2 at byte 7: "second"
	// line 3 at byte 14: "no newline at the end"
}
