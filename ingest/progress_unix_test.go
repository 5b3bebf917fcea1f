//go:build unix

package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// liveRecorder is a Progress that the test goroutine can read while Run
// calls it.
type liveRecorder struct {
	dec, pages, revs atomic.Int64
	finished         atomic.Bool
}

func (r *liveRecorder) Start(int64) {}
func (r *liveRecorder) Add(_, d, p, v int64) {
	r.dec.Add(d)
	r.pages.Add(p)
	r.revs.Add(v)
}
func (r *liveRecorder) Finish() { r.finished.Store(true) }

// While a parser is inside one long page (here: half a page written to a
// FIFO, the rest held back), Progress still hears of the decompressed
// bytes and of the revisions read so far: the display does not freeze on a
// 1 GB page history. The same
// holds for a Yelp business file, read before any page. Without the
// progress ticks no Add comes before the input ends and this test times
// out.
func TestProgressDuringOnePage(t *testing.T) {
	page := `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10"><siteinfo><dbname>w</dbname></siteinfo>
<page><title>Long</title><ns>0</ns><id>1</id>
` + strings.Repeat("<revision><timestamp>2001-01-01T00:00:00Z</timestamp><text>x</text></revision>\n", 100) + `
<revision><id>2</id><timestamp>2001-01-02T00:00:00Z</timestamp><text>` + strings.Repeat("x", 200<<10)
	var biz strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&biz, `{"business_id":"b%d","name":"Shop %d","city":"Tempe","state":"AZ","categories":"Food"}`+"\n", i, i)
	}
	for _, c := range []struct {
		name, head, tail string
		pages, revs      int64
		liveRevs         int64 // revisions in head, reported before the page ends
	}{
		{"dump.xml", page, "</text></revision></page></mediawiki>\n", 1, 101, 64},
		{"yelp_academic_dataset_business.json", biz.String(), `{"business_id":"last","name":"Last","city":"Tempe"}` + "\n", 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, c.name)
			if err := unix.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
			rec := &liveRecorder{}
			done := make(chan error, 1)
			go func() {
				_, err := Run(context.Background(), Options{Inputs: []string{fifo}, Output: filepath.Join(dir, "ds"), Progress: rec})
				done <- err
			}()
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.WriteString(c.head); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for rec.dec.Load() == 0 || rec.revs.Load() < c.liveRevs {
				if time.Now().After(deadline) {
					w.Close()
					<-done
					t.Fatal("no progress while the input was being read")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if p := rec.pages.Load(); p != 0 {
				t.Fatalf("%d pages reported before the input ended", p)
			}
			fmt.Fprint(w, c.tail)
			w.Close()
			var ee *EmptyError
			if err := <-done; err != nil && !(c.pages == 0 && errors.As(err, &ee)) { // a business file alone has no page
				t.Fatal(err)
			}
			if rec.pages.Load() != c.pages || rec.revs.Load() != c.revs || rec.dec.Load() != int64(len(c.head)+len(c.tail)) || !rec.finished.Load() {
				t.Fatalf("pages %d revisions %d decompressed %d (want %d, %d, %d)", rec.pages.Load(), rec.revs.Load(), rec.dec.Load(), c.pages, c.revs, len(c.head)+len(c.tail))
			}
		})
	}
}
