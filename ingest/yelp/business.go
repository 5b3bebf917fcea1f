package yelp

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/ingest/source"
)

// Business is what the business file says about one business.
type Business struct {
	Name, City, State string
	// Categories are comma-separated ("Restaurants, Pizza"); the old
	// format's JSON array is joined the same way.
	Categories string
}

// Businesses maps business_id to its Business.
type Businesses map[string]Business

// ReadBusinesses reads yelp_academic_dataset_business.json (either format).
// A line that does not parse or lacks business_id is a bad record, handled
// by opt (returned, or counted and skipped with SkipBad).
func ReadBusinesses(r io.Reader, opt source.Options) (Businesses, error) {
	ls := linescan.New(r, 1<<20)
	ls.SetMax(opt.MaxLineBytes)
	bs := Businesses{}
	first := true
	for {
		line, err := ls.Next()
		if err == io.EOF {
			return bs, nil
		}
		if tl, ok := linescan.IsTooLong(err); ok {
			if err := opt.Bad(&source.ParseError{File: opt.File, Offset: ls.Offset(), Line: ls.Line(), Reason: "line-too-long", Err: tl}); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			pe := source.ReadError(opt.File, ls.Consumed(), ls.Line()+1, "", err)
			if pe.Reason == "corrupt" {
				if err := opt.Bad(pe); err == nil {
					return bs, nil // counted with SkipBad: the stream ends here
				}
			}
			return nil, pe
		}
		if isBlank(line) {
			continue
		}
		var id string
		var b Business
		var sh shape
		var catErr error
		serr := jsonscan.Members(line, func(key []byte, v jsonscan.Value) error {
			sh.member(key, v)
			if v.Kind != jsonscan.String && !(string(key) == "categories" && v.Kind == jsonscan.Array) {
				return nil
			}
			switch string(key) {
			case "business_id":
				id = string(v.Str())
			case "name":
				b.Name = string(v.Str())
			case "city":
				b.City = string(v.Str())
			case "state":
				b.State = string(v.Str())
			case "categories":
				if v.Kind == jsonscan.String {
					b.Categories = string(v.Str())
					break
				}
				var cats []string
				catErr = jsonscan.Elements(v.Raw, func(_ int, c jsonscan.Value) error {
					cats = append(cats, string(c.Str()))
					return nil
				})
				b.Categories = strings.Join(cats, ", ")
			}
			return nil
		})
		pe := &source.ParseError{File: opt.File, Offset: ls.Offset(), Line: ls.Line(), Page: id}
		switch {
		case serr != nil || catErr != nil:
			pe.Reason, pe.Err = generic.JSONCause(errors.Join(serr, catErr))
		case first && sh.kind() != KindBusiness:
			return nil, &source.ParseError{File: opt.File, Offset: ls.Offset(), Line: ls.Line(), Reason: "format",
				Err: fmt.Errorf("not a Yelp business file (the first record looks like %q)", sh.kind())}
		case id == "":
			pe.Reason, pe.Err = "missing-field", errors.New("no business_id")
		default:
			first = false
			bs[id] = b
			continue
		}
		if err := opt.Bad(pe); err != nil {
			return nil, err
		}
	}
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
