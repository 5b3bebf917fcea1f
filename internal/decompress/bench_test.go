package decompress

import (
	"compress/gzip"
	"io"
	"os"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/pgzip"
)

// The gzip decoders compared on the file named by REVISIT_BENCH_GZ
// (bench/ingest.sh): pgzip (read-ahead in its own goroutine, what Open
// uses), klauspost's gzip and the standard library's. Skipped when unset.
func benchGzip(b *testing.B, open func(io.Reader) (io.Reader, error)) {
	name := os.Getenv("REVISIT_BENCH_GZ")
	if name == "" {
		b.Skip("set REVISIT_BENCH_GZ to a .gz file")
	}
	for b.Loop() {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := open(f)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, zr)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
		f.Close()
	}
}

func BenchmarkGzipPgzip(b *testing.B) {
	benchGzip(b, func(r io.Reader) (io.Reader, error) { return pgzip.NewReaderN(r, 1<<20, 8) })
}

func BenchmarkGzipKlauspost(b *testing.B) {
	benchGzip(b, func(r io.Reader) (io.Reader, error) { return kgzip.NewReader(r) })
}

func BenchmarkGzipStdlib(b *testing.B) {
	benchGzip(b, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
}

// BenchmarkOpen is the whole decompress.Reader (pgzip, counting, SHA-256)
// on the same file.
func BenchmarkOpen(b *testing.B) {
	name := os.Getenv("REVISIT_BENCH_GZ")
	if name == "" {
		b.Skip("set REVISIT_BENCH_GZ to a .gz file")
	}
	for b.Loop() {
		r, err := Open(name)
		if err != nil {
			b.Fatal(err)
		}
		r.Next()
		n, err := io.Copy(io.Discard, r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.SHA256(); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
		r.Close()
	}
}
