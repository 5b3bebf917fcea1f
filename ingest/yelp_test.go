package ingest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
)

// The real Yelp files of SOURCES.md §2 through the driver: the counts
// SOURCES.md states (11,291 check-ins of 100 businesses; 300 old-format
// reviews of 33 businesses; 5,372 tips of 1,238 businesses), and the
// truncated dcwe file fails without --skip-bad and gives 3,610 reviews of
// 2,219 businesses and 1 bad record with it.
func TestRealYelp(t *testing.T) {
	root := realdata.Dir(t)
	y := func(rel string) string { return filepath.Join(root, "yelp", rel) }
	for _, c := range []struct {
		file        string
		pages, revs int64
		resolution  int32
	}{
		{"alisongh__SIADS-591-592/checkin.json", 100, 11291, 1},
		{"xiaonanzzz__SnlpProject/yelp_academic_dataset_review.json", 33, 300, units.Day},
		{"shenyy__Resturants/yelp_academic_dataset_tip.json", 1238, 5372, units.Day},
	} {
		s, ps := run(t, Options{Inputs: []string{y(c.file)}})
		if s.Counts.PagesKept != c.pages || s.Counts.RevisionsRead != c.revs || ps[0].Resolution != c.resolution || ps[0].Source != "yelp" {
			t.Errorf("%s: %d pages, %d revisions, resolution %d; want %d, %d, %d", c.file, s.Counts.PagesKept, s.Counts.RevisionsRead, ps[0].Resolution, c.pages, c.revs, c.resolution)
		}
	}
	trunc := y("tilmanbeck__dcwe/yelp_academic_dataset_review.json")
	out := filepath.Join(t.TempDir(), "ds")
	if _, err := Run(t.Context(), Options{Inputs: []string{trunc}, Output: out}); err == nil {
		t.Fatal("the truncated Yelp file was accepted without --skip-bad")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a dataset was left after an error")
	}
	s, _ := run(t, Options{Inputs: []string{trunc}, SkipBad: true})
	if s.Counts.PagesKept != 2219 || s.Counts.RevisionsRead != 3610 || s.Bad["truncated"] != 1 || s.Counts.Skipped["bad_truncated"] != 1 {
		t.Errorf("skip-bad: %d pages, %d revisions, bad %v", s.Counts.PagesKept, s.Counts.RevisionsRead, s.Bad)
	}
}

// A Yelp-style .tar.gz (built here): the business file comes last, a user
// file is skipped and counted, reviews and tips of one business merge into
// one page titled with its name and grouped by its city.
func TestYelpTarJoin(t *testing.T) {
	files := []struct{ name, body string }{
		{"yelp_dataset/yelp_academic_dataset_review.json",
			`{"review_id":"r1","user_id":"u1","business_id":"B1","stars":5,"text":"x","date":"2018-01-01 10:00:00"}` + "\n" +
				`{"review_id":"r2","user_id":"u2","business_id":"B2","stars":4,"text":"y","date":"2018-01-02 11:00:00"}` + "\n" +
				`{"review_id":"r3","user_id":"u3","business_id":"B1","stars":3,"text":"z","date":"2018-01-01 10:00:00"}` + "\n"},
		{"yelp_dataset/yelp_academic_dataset_user.json", `{"user_id":"u1","name":"Ann","review_count":3}` + "\n"},
		{"yelp_dataset/yelp_academic_dataset_tip.json", `{"user_id":"u1","business_id":"B1","text":"tip","date":"2019-03-04 05:06:07","compliment_count":0}` + "\n"},
		{"yelp_dataset/yelp_academic_dataset_business.json", `{"business_id":"B1","name":"Joe's Diner","city":"Tempe","state":"AZ","categories":"Diners"}` + "\n"},
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "yelp_dataset/", Typeflag: tar.TypeDir, Mode: 0o755})
	for _, f := range files {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(f.body))
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "yelp_dataset.tgz")
	os.WriteFile(p, buf.Bytes(), 0o644)
	s, ps := run(t, Options{Inputs: []string{p}})
	if len(ps) != 2 {
		t.Fatalf("%d pages", len(ps))
	}
	u := func(y int, m time.Month, d, h, mi, sec int) int64 {
		return time.Date(y, m, d, h, mi, sec, 0, time.UTC).Unix()
	}
	b1 := ps[0]
	// B1: reviews r1 and r3 in the same second (1 collapsed) and the tip.
	if b1.Title != "Joe's Diner" || b1.Group != "Tempe" || !slices.Equal(b1.Updates, []int64{u(2018, 1, 1, 10, 0, 0), u(2019, 3, 4, 5, 6, 7)}) || b1.Collapsed != 1 {
		t.Errorf("B1: %+v", b1)
	}
	if ps[1].Title != "B2" || ps[1].Group != "" {
		t.Errorf("B2 (not in the business file): %+v", ps[1])
	}
	if s.YelpJoined != 1 || s.YelpUnjoined != 1 || s.Counts.Skipped["archive_members_unknown_format"] != 1 {
		t.Errorf("joined %d unjoined %d skipped %v", s.YelpJoined, s.YelpUnjoined, s.Counts.Skipped)
	}
	if f := s.Inputs[0].Format; f != "tar+gzip[yelp-review,skipped:yelp_dataset/yelp_academic_dataset_user.json,yelp-tip,yelp-business]" {
		t.Errorf("format %q", f)
	}
}

// With the business file among the inputs every Yelp format is titled by
// the business's name and grouped by its city: the real check-in (2019+),
// old review, old tip and new review files of SOURCES.md §2, each with a
// business file naming every business_id it holds (ids read here with
// encoding/json), in the new and in the old (≤2016, "type":"business",
// categories as an array) business format.
func TestRealYelpTitledByName(t *testing.T) {
	root := realdata.Dir(t)
	for _, rel := range []string{
		"alisongh__SIADS-591-592/checkin.json",
		"xiaonanzzz__SnlpProject/yelp_academic_dataset_review.json",
		"shenyy__Resturants/yelp_academic_dataset_tip.json",
		"tilmanbeck__dcwe/yelp_academic_dataset_review.json",
	} {
		in := filepath.Join(root, "yelp", rel)
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			var rec struct {
				BusinessID string `json:"business_id"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.BusinessID != "" {
				ids[rec.BusinessID] = true
			}
		}
		for _, old := range []bool{false, true} {
			var biz strings.Builder
			for id := range ids {
				if old {
					fmt.Fprintf(&biz, `{"business_id": %q, "full_address": "1 Main St", "categories": ["Food", "Pizza"], "city": "City of %s", "name": "Name of %s", "type": "business"}`+"\n", id, id, id)
				} else {
					fmt.Fprintf(&biz, `{"business_id":%q,"name":"Name of %s","city":"City of %s","state":"AZ","categories":"Food, Pizza"}`+"\n", id, id, id)
				}
			}
			bf := filepath.Join(t.TempDir(), "yelp_academic_dataset_business.json")
			os.WriteFile(bf, []byte(biz.String()), 0o644)
			s, ps := run(t, Options{Inputs: []string{in, bf}, SkipBad: true})
			if len(ps) == 0 || s.YelpJoined != int64(len(ps)) || s.YelpUnjoined != 0 || s.YelpIDTitles != 0 {
				t.Fatalf("%s (old business format %v): %d pages, joined %d, not joined %d, id titles %d", rel, old, len(ps), s.YelpJoined, s.YelpUnjoined, s.YelpIDTitles)
			}
			for _, p := range ps {
				id, ok := strings.CutPrefix(p.Title, "Name of ")
				if !ok || !ids[id] || p.Group != "City of "+id || p.ID != generic.PageID(id) {
					t.Fatalf("%s (old business format %v): page %d titled %q in %q", rel, old, p.ID, p.Title, p.Group)
				}
			}
			if strings.Contains(s.String(), "titles are business ids") {
				t.Errorf("%s: summary:\n%s", rel, s)
			}
		}
	}
}
