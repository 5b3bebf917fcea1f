package schedule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/internal/human"
)

// importanceJoin gives each page its importance from an importance file
// in bounded memory, the way estimate joins the Bing trace's companion
// files (crawllog/logs): the file is checked and sorted by key with the
// same external merge sort (logs.Sorter: runs of 16 MiB in temporary
// files revisit unlinks at once) before the pages are read; each page's
// two keys, its title and its decimal id, are sorted the same way as the
// pages stream by; one merge of the two sorted streams then sets the
// weights, a title's match before an id's. Nothing of the file is held in
// memory: Bing's urlid_imp.txt has 18·10⁶ lines. Memory: the sorters'
// runs, 8 bytes a page for the weight and 1 for how it was found.
type importanceJoin struct {
	file    string
	missing float64
	imp     *logs.Sorted
	entries int64
	first   string // the file's first key, for messages
	keys    *logs.Sorter
	title   string // the first page's title and id, for messages
	id      int64
	pages   int
}

// Keys of the pages in the join, told apart by the record's line.
const (
	byTitle = 0
	byID    = 1
)

// openImportance reads, checks and sorts an importance file (eachPair:
// KEY and an importance, ParseImportance); a key given twice is refused,
// naming both lines.
func openImportance(ctx context.Context, path string, missing float64) (*importanceJoin, error) {
	s := logs.NewSorter("importance file " + path)
	defer s.Close()
	j := &importanceJoin{file: path, missing: missing}
	err := eachPair(path, importanceHeader, func(line int, key, value string) error {
		v, err := ParseImportance(value)
		if err != nil {
			return err
		}
		if j.entries == 0 {
			j.first = key
		}
		j.entries++
		return s.Add(key, "", v, int64(line))
	})
	if err != nil {
		return nil, err
	}
	if j.entries == 0 {
		return nil, fmt.Errorf("%s: no importance in the file", path)
	}
	// The sort is stable: the first record of a key is its first line.
	var dup, first *logs.Record
	var prev logs.Record
	sorted, err := s.Sorted(ctx, func(r *logs.Record) (bool, error) {
		if prev.Line > 0 && r.Key == prev.Key {
			if dup == nil || r.Line < dup.Line {
				d, f := *r, prev
				dup, first = &d, &f
			}
			return false, nil
		}
		prev = *r
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if dup != nil {
		sorted.Close()
		return nil, &ParseError{path, int(dup.Line), fmt.Errorf("%q given twice (first on line %d)", dup.Key, first.Line)}
	}
	j.imp = sorted
	j.keys = logs.NewSorter("the pages' keys for " + path)
	return j, nil
}

// add is page i's keys.
func (j *importanceJoin) add(i int, id int64, title string) error {
	if j.pages == 0 {
		j.title, j.id = title, id
	}
	j.pages++
	if err := j.keys.Add(title, "", float64(i), byTitle); err != nil {
		return err
	}
	return j.keys.Add(strconv.FormatInt(id, 10), "", float64(i), byID)
}

// ImportanceStats says how an importance file applied to the pages.
type ImportanceStats struct {
	File            string
	Entries         int64   // importances in the file
	ByTitle, ByID   int     // pages named by their title, by their id
	Missing         int     // pages not named: MissingWeight
	MissingWeight   float64 // their importance
	Unused          int64   // entries naming no page
	ZeroImportances int     // pages of importance 0 (never visited by the plans of w)
}

// Summary is one sentence on the importances.
func (s ImportanceStats) Summary() string {
	if s.File == "" {
		return ""
	}
	msg := fmt.Sprintf("importance of %s: %s named (%s by title, %s by id)", s.File,
		human.Count(int64(s.ByTitle+s.ByID), "page", "pages"), human.Comma(int64(s.ByTitle)), human.Comma(int64(s.ByID)))
	if s.Missing > 0 {
		msg += fmt.Sprintf(", %s not named (importance %g)", human.Count(int64(s.Missing), "page", "pages"), s.MissingWeight)
	}
	if s.Unused > 0 {
		msg += fmt.Sprintf("; %s of its %s name no page", human.Comma(s.Unused), human.Count(s.Entries, "entry", "entries"))
	}
	return msg
}

// weights merges the sorted file with the pages' sorted keys: the
// importance of each of the n pages, and what applied. It fails when the
// file names none of the pages (a file keyed otherwise: by URL_ID while
// the pages are named by URL, say).
func (j *importanceJoin) weights(ctx context.Context, n int) ([]float64, ImportanceStats, error) {
	st := ImportanceStats{File: j.file, Entries: j.entries, MissingWeight: j.missing}
	keys, err := j.keys.Sorted(ctx, nil)
	if err != nil {
		return nil, st, err
	}
	defer keys.Close()
	j.keys.Close()
	w := make([]float64, n)
	how := make([]uint8, n) // 0: not named, 1 + byTitle or 1 + byID
	a, ea := j.imp.Next()
	b, eb := keys.Next()
	used := false
	for ea == nil && eb == nil {
		switch {
		case logs.KeyLess(a.Key, b.Key):
			if !used {
				st.Unused++
			}
			a, ea = j.imp.Next()
			used = false
		case logs.KeyLess(b.Key, a.Key):
			b, eb = keys.Next()
		default:
			i := int(b.Num)
			if b.Line == byTitle || how[i] == 0 {
				w[i], how[i] = a.Num, uint8(1+b.Line)
			}
			used = true
			b, eb = keys.Next()
		}
	}
	for ea == nil {
		if !used {
			st.Unused++
		}
		a, ea = j.imp.Next()
		used = false
	}
	for _, err := range []error{ea, eb} {
		if !errors.Is(err, io.EOF) && err != nil {
			return nil, st, err
		}
	}
	for i := range w {
		switch how[i] {
		case 0:
			st.Missing++
			w[i] = j.missing
		case 1 + byTitle:
			st.ByTitle++
		default:
			st.ByID++
		}
		if w[i] == 0 {
			st.ZeroImportances++
		}
	}
	if st.ByTitle+st.ByID == 0 {
		return nil, st, fmt.Errorf("schedule: %s names none of the %d pages: its keys (such as %q) are matched against the pages' titles (such as %q) and decimal ids (such as %d)",
			j.file, n, j.first, j.title, j.id)
	}
	return w, st, nil
}

// joinImportance is the importances of n pages held in memory (page
// gives page i's id and title) from opt.Importance.
func joinImportance(opt Options, n int, page func(i int) (int64, string)) ([]float64, ImportanceStats, error) {
	ctx := context.Background()
	j, err := openImportance(ctx, opt.Importance, opt.MissingWeight)
	if err != nil {
		return nil, ImportanceStats{}, err
	}
	defer j.close()
	for i := range n {
		id, title := page(i)
		if err := j.add(i, id, title); err != nil {
			return nil, ImportanceStats{}, err
		}
	}
	return j.weights(ctx, n)
}

// close removes the join's temporary files.
func (j *importanceJoin) close() {
	if j.imp != nil {
		j.imp.Close()
	}
	if j.keys != nil {
		j.keys.Close()
	}
}

// duplicateID finds a page id given twice in ids (ok false when none),
// sorting ids in place.
func duplicateID(ids []int64) (int64, bool) {
	s := ids
	slices.Sort(s)
	for k := 1; k < len(s); k++ {
		if s[k] == s[k-1] {
			return s[k], true
		}
	}
	return 0, false
}

// sharedIDError is the error of a page id given to two pages: schedule
// plans one rate per page. The estimates of two URL_IDs that a URL file
// maps to one URL have one page id (estimate keys its pages by URL).
func sharedIDError(id int64, title string, first, second int) error {
	return fmt.Errorf("page id %d (%q) is given twice (pages %d and %d of the input, in its order); schedule plans one rate per page. In an estimate output this is two URL_IDs that the URL file maps to one URL (urls.csv lists each with its URL_ID as source): give the URL file one URL_ID per URL, or estimate without it",
		id, title, first+1, second+1)
}
