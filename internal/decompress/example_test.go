package decompress_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/decompress"
)

func Example() {
	dir, _ := os.MkdirTemp("", "decompress-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "dump.xml.gz")
	f, _ := os.Create(p)
	zw := gzip.NewWriter(f)
	io.WriteString(zw, "<mediawiki>…</mediawiki>\n")
	zw.Close()
	f.Close()

	r, err := decompress.Open(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	for {
		member, err := r.Next() // a plain stream is one member named ""
		if err == io.EOF {
			break
		}
		head, _ := r.Peek(10)
		b, _ := io.ReadAll(r)
		fmt.Printf("member %q: %s, %d bytes, starts %q\n", member, r.Format(), len(b), head)
	}
	sum, _ := r.SHA256()
	fmt.Println(r.Consumed() == r.Size(), len(sum))
	// Output:
	// member "": gzip, 27 bytes, starts "<mediawiki"
	// true 64
}
