package generate

import (
	"compress/gzip"

	kgzip "github.com/klauspost/compress/gzip"
	"io"
	"testing"
	"time"
)

// BenchmarkMediaWiki measures MediaWiki XML generation (MB/s of
// uncompressed XML) alone and through each gzip writer at BestSpeed. Run
// with: go test -run '^$' -bench MediaWiki ./generate
func BenchmarkMediaWiki(b *testing.B) {
	ms, err := ParseModels([]string{"pareto:2,{lognormal:2,0.5}"}, 3600)
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Pages: 40, Models: ms, Start: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), Span: 2 * 31557600,
		UnitName: "h", Unit: 3600, Seed: 1, TalkFraction: 0.1}
	for _, c := range []struct {
		name string
		wrap func(io.Writer) (io.WriteCloser, error)
	}{
		{"xml", func(w io.Writer) (io.WriteCloser, error) { return nopCloser{w}, nil }},
		{"pgzip", func(w io.Writer) (io.WriteCloser, error) { return newGzip(w, "pgzip") }},
		{"klauspost-gzip", func(w io.Writer) (io.WriteCloser, error) { return newGzip(w, "gzip") }},
		{"klauspost-stateless", func(w io.Writer) (io.WriteCloser, error) {
			return kgzip.NewWriterLevel(w, kgzip.StatelessCompression)
		}},
		{"klauspost-huffman", func(w io.Writer) (io.WriteCloser, error) { return kgzip.NewWriterLevel(w, kgzip.HuffmanOnly) }},
		{"stdlib-gzip", func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, gzip.BestSpeed) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			g, err := NewGenerator(cfg)
			if err != nil {
				b.Fatal(err)
			}
			var page Page
			var n int64
			for i := 0; i < b.N; i++ {
				zw, err := c.wrap(io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				mw, err := newMediaWikiWriter(zw, cfg.Seed)
				if err != nil {
					b.Fatal(err)
				}
				for k := 0; k < cfg.Pages; k++ {
					if err := g.Page(k, &page); err != nil {
						b.Fatal(err)
					}
					if err := mw.page(&page); err != nil {
						b.Fatal(err)
					}
				}
				if err := mw.close(); err != nil {
					b.Fatal(err)
				}
				if err := zw.Close(); err != nil {
					b.Fatal(err)
				}
				n = mw.bytes()
			}
			b.SetBytes(n)
		})
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
