package ingest

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
)

// An input argument may end in ":skip=N": the generic log's --skip-lines
// for that input alone (a title line before the header of one file among
// several, such as "Data pulled on 10/29/2014 at 11:05:58"). The suffix is
// an option only when no file has the whole argument as its name, so that
// a file named "notes:skip=1" is still read as such; "-:skip=N" is
// standard input. Without the suffix an input takes --skip-lines
// (Options.Generic.SkipLines).
var skipSuffix = regexp.MustCompile(`:skip=([0-9]+)$`)

// inputSpec is an input argument resolved: the path to read and the lines
// to skip before a generic log's header.
type inputSpec struct {
	path string
	skip int
}

// parseInput resolves one input argument (see skipSuffix); def is the
// --skip-lines of inputs without the suffix.
func parseInput(arg string, def int) (inputSpec, error) {
	m := skipSuffix.FindStringSubmatchIndex(arg)
	if m == nil || arg == "-" {
		return inputSpec{arg, def}, nil
	}
	if _, err := os.Lstat(arg); err == nil {
		return inputSpec{arg, def}, nil // a file of that very name
	}
	n, err := strconv.Atoi(arg[m[2]:m[3]])
	if err != nil || n > maxSkipLines {
		return inputSpec{}, fmt.Errorf("%s: skip=%s: want a number of lines from 0 to %d", arg, arg[m[2]:m[3]], maxSkipLines)
	}
	return inputSpec{arg[:m[0]], n}, nil
}

// maxSkipLines bounds a :skip=N (a title block, not a file's worth).
const maxSkipLines = 1 << 20

// parseInputs resolves opt.Inputs.
func (o *Options) parseInputs() ([]inputSpec, error) {
	specs := make([]inputSpec, 0, len(o.Inputs))
	for _, in := range o.Inputs {
		s, err := parseInput(in, o.Generic.SkipLines)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// skipHead is head without its first n lines (empty when it holds fewer).
func skipHead(head []byte, n int) []byte {
	for ; n > 0; n-- {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			return head[len(head):]
		}
		head = head[i+1:]
	}
	return head
}
