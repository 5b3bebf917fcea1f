package traces

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/series"
)

// Derived paths, relative to the real-data root.
const (
	RevisionTimestamps = "wikipedia/_derived/revision_timestamps.csv"
	CovidEditions      = "wikipedia/_derived/covid19_editions.csv.gz"
	Kevinisagirl       = "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz"
	HelpScraper        = "other/simonw__help-scraper/simonw-help-scraper_file_commits.csv.gz"
	CAFires            = "other/simonw__ca-fires-history/simonw-ca-fires-history_file_commits.csv.gz"
)

// builder collects revision times per key in first-seen order.
type builder struct {
	order []string
	raw   map[string]*series.RawPage
}

func newBuilder() *builder { return &builder{raw: map[string]*series.RawPage{}} }

func (b *builder) add(key string, mk func() series.RawPage, t int64) {
	r, ok := b.raw[key]
	if !ok {
		p := mk()
		r = &p
		b.raw[key] = r
		b.order = append(b.order, key)
	}
	r.Revisions = append(r.Revisions, t)
}

func (b *builder) pages() []series.Page {
	out := make([]series.Page, 0, len(b.order))
	for i, k := range b.order {
		p := b.raw[k].Normalize()
		if p.ID == 0 {
			p.ID = int64(i + 1)
		}
		out = append(out, p)
	}
	return out
}

func open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(name, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

func parseTime(file string, line int, s string) (int64, error) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s:%d: timestamp %q: %w", file, line, s, err)
	}
	return t.Unix(), nil
}

// readCSV calls fn for every record after the header.
func readCSV(name string, fn func(line int, rec []string) error) error {
	rc, err := open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	r.FieldsPerRecord = -1
	if _, err := r.Read(); err != nil {
		return fmt.Errorf("%s: header: %w", name, err)
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		line, _ := r.FieldPos(0)
		if err := fn(line, rec); err != nil {
			return err
		}
	}
}

// Revisions reads wikipedia/_derived/revision_timestamps.csv (file, page_id,
// ns, title, rev_id, timestamp): one page per (file, page_id), grouped by
// the file it came from.
func Revisions(name string) ([]series.Page, error) {
	b := newBuilder()
	err := readCSV(name, func(line int, rec []string) error {
		if len(rec) < 6 {
			return fmt.Errorf("%s:%d: %d fields, want 6", name, line, len(rec))
		}
		t, err := parseTime(name, line, rec[5])
		if err != nil {
			return err
		}
		id, _ := strconv.ParseInt(rec[1], 10, 64)
		ns, _ := strconv.ParseInt(rec[2], 10, 32)
		b.add(rec[0]+"\x00"+rec[1], func() series.RawPage {
			return series.RawPage{ID: id, Source: "wikipedia", Title: rec[3], Namespace: int32(ns), Group: rec[0], Resolution: 1}
		}, t)
		return nil
	})
	return b.pages(), err
}

// Covid reads wikipedia/_derived/covid19_editions.csv.gz (edition,
// timestamp): one page per language edition of the COVID-19 article, its
// group the edition.
func Covid(name string) ([]series.Page, error) {
	b := newBuilder()
	err := readCSV(name, func(line int, rec []string) error {
		if len(rec) < 2 {
			return fmt.Errorf("%s:%d: %d fields, want 2", name, line, len(rec))
		}
		t, err := parseTime(name, line, rec[1])
		if err != nil {
			return err
		}
		b.add(rec[0], func() series.RawPage {
			return series.RawPage{Source: "covid19", Title: rec[0], Group: rec[0], Resolution: 1}
		}, t)
		return nil
	})
	return b.pages(), err
}

// GitFiles reads a derived git history (path, commit, author_time_utc,
// commit_time_utc): one page per file, updated at its commit times, grouped
// by its top-level directory ("." for files at the root).
func GitFiles(name string) ([]series.Page, error) {
	b := newBuilder()
	err := readCSV(name, func(line int, rec []string) error {
		if len(rec) < 4 {
			return fmt.Errorf("%s:%d: %d fields, want 4", name, line, len(rec))
		}
		t, err := parseTime(name, line, rec[3])
		if err != nil {
			return err
		}
		p := rec[0]
		b.add(p, func() series.RawPage {
			g := "."
			if i := strings.IndexByte(p, '/'); i > 0 {
				g = p[:i]
			}
			return series.RawPage{Source: "git:" + path.Base(name), Title: p, Group: g, Resolution: 1}
		}, t)
		return nil
	})
	return b.pages(), err
}

// Kevin reads the Kevinisagirl sample of 1,000 enwiki articles (one JSON
// array per line: page id, title, timestamp, flag); its pages have no group.
func Kevin(name string) ([]series.Page, error) {
	rc, err := open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b := newBuilder()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		var rec []string
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(rec) < 3 {
			return nil, fmt.Errorf("%s:%d: %d fields, want ≥ 3", name, line, len(rec))
		}
		t, err := parseTime(name, line, rec[2])
		if err != nil {
			return nil, err
		}
		id, err := strconv.ParseInt(rec[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: page id %q: %w", name, line, rec[0], err)
		}
		b.add(rec[0], func() series.RawPage {
			return series.RawPage{ID: id, Source: "enwiki", Title: rec[1], Resolution: 1}
		}, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line, err)
	}
	return b.pages(), nil
}
