package atomicdir

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkContentHash compares the standard library's hashes for the
// content hash of the entry lists, on 16 MiB (MB/s in the output):
// SHA-256 (chosen), CRC-64 and CRC-32C.
func BenchmarkContentHash(b *testing.B) {
	buf := make([]byte, 16<<20)
	for i := range buf {
		buf[i] = byte(i * 7919 >> 3)
	}
	for _, c := range []struct {
		name string
		h    func() hash.Hash
	}{
		{"sha256", sha256.New},
		{"crc64-iso", func() hash.Hash { return crc64.New(crc64.MakeTable(crc64.ISO)) }},
		{"crc64-ecma", func() hash.Hash { return crc64.New(crc64.MakeTable(crc64.ECMA)) }},
		{"crc32c", func() hash.Hash { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				h := c.h()
				h.Write(buf)
				h.Sum(nil)
			}
		})
	}
}

// benchOutput commits an output of files × size bytes at final.
func benchOutput(b *testing.B, final string, files, size int) {
	b.Helper()
	d, err := Create(final, "m", "bench output")
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Path(), "m"), []byte(MarkerText+" bench"), 0o644)
	buf := make([]byte, size)
	for i := range files {
		buf[0] = byte(i)
		if err := os.WriteFile(filepath.Join(d.Path(), fmt.Sprintf("part-%05d", i)), buf, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCheck is what checking an earlier output of 256 MiB in 64
// files costs (CheckReplaceable): untouched, the stamps decide and no file
// is read; copied elsewhere (other inodes and times), every file is
// hashed. MB/s is of the output's size.
func BenchmarkCheck(b *testing.B) {
	const files, size = 64, 4 << 20
	dir := b.TempDir()
	final := filepath.Join(dir, "out")
	benchOutput(b, final, files, size)
	copied := filepath.Join(dir, "copy")
	os.Mkdir(copied, 0o755)
	ents, _ := os.ReadDir(final)
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(final, e.Name()))
		os.WriteFile(filepath.Join(copied, e.Name()), data, 0o644)
	}
	for _, c := range []struct{ name, dir string }{{"untouched", final}, {"copied", copied}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(files * size)
			for b.Loop() {
				if err := CheckReplaceable(c.dir, "m", "bench output"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
