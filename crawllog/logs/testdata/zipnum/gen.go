//go:build ignore

// gen writes the ZipNum fixtures of this directory (see README.md):
//
//	go run gen.go
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// empty is the digest of the empty payload (a redirect's).
const empty = "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"

// lines are 11-field CDX lines (urlkey timestamp original mimetype
// statuscode digest redirect meta length offset filename), sorted by
// urlkey then timestamp, of a made-up site.
var lines = []string{
	"org,example)/ 20210101000000 http://example.org/ text/html 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 900 100 a.warc.gz",
	"org,example)/ 20210102000000 https://example.org/ text/html 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 900 1000 a.warc.gz",
	"org,example)/ 20210103000000 http://example.org/ warc/revisit - AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 400 1900 a.warc.gz",
	"org,example)/ 20210104000000 https://example.org/ text/html 200 BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB - - 910 2300 a.warc.gz",
	"org,example)/ 20210105000000 http://example.org/ text/html 200 CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC - - 920 3210 a.warc.gz",
	"org,example)/ 20210106000000 http://example.org/ warc/revisit - CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC - - 400 4130 a.warc.gz",
	"org,example)/about 20210101000000 http://example.org/about text/html 200 DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD - - 800 4530 a.warc.gz",
	"org,example)/about 20210103000000 http://example.org/about warc/revisit - DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD - - 400 5330 a.warc.gz",
	"org,example)/about 20210105000000 http://example.org/about text/html 200 EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE - - 810 5730 a.warc.gz",
	"org,example)/moved 20210101000000 http://example.org/moved unk 302 " + empty + " - - 300 6540 a.warc.gz",
	"org,example)/moved 20210102000000 https://example.org/moved unk 302 " + empty + " - - 300 6840 a.warc.gz",
	"org,example)/moved 20210104000000 http://example.org/moved warc/revisit - " + empty + " - - 300 7140 a.warc.gz",
	"org,example)/news 20210101000000 http://example.org/news text/html 404 FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF - - 200 7440 a.warc.gz",
	"org,example)/news 20210102000000 http://example.org/news text/html 200 GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG - - 700 7640 a.warc.gz",
	"org,example)/news 20210103000000 http://example.org/news text/html 200 HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH - - 700 8340 a.warc.gz",
	"org,example)/news 20210104000000 http://example.org/news text/html 200 HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH - - 700 9040 a.warc.gz",
	"org,example)/old 20210101000000 http://example.org/old text/html 200 IIIIIIIIIIIIIIIIIIIIIIIIIIIIIIII - - 600 9740 a.warc.gz",
	"org,example)/old 20210102000000 http://example.org/old text/html 200 JJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJ - - 600 10340 a.warc.gz",
	"org,example)/old 20210103000000 http://example.org/old text/html 410 KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK - - 200 10940 a.warc.gz",
	"org,example)/redir 20210101000000 http://example.org/redir unk 301 " + empty + " - - 300 11140 a.warc.gz",
	"org,example)/redir 20210102000000 http://www.example.org/redir unk 301 " + empty + " - - 300 11440 a.warc.gz",
	"org,example)/x 20210101000000 http://example.org/x text/html 200 LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL - - 500 11740 a.warc.gz",
}

// block is the lines of each ZipNum block.
const block = 5

func main() {
	plain := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile("example.cdx", []byte(plain), 0o644); err != nil {
		panic(err)
	}
	var shard bytes.Buffer
	var idx strings.Builder
	for b, i := 0, 0; i < len(lines); b, i = b+1, i+block {
		blk := lines[i:min(i+block, len(lines))]
		off := shard.Len()
		zw := gzip.NewWriter(&shard)
		// a block's last line ends without a newline, as in pywb's sample
		zw.Write([]byte(strings.Join(blk, "\n")))
		zw.Close()
		fs := strings.Fields(blk[0])
		fmt.Fprintf(&idx, "%s %s\t%s\t%d\t%d\t%d\n", fs[0], fs[1], "example", off, shard.Len()-off, b+1)
	}
	if err := os.WriteFile("example-zipnum.cdx.gz", shard.Bytes(), 0o644); err != nil {
		panic(err)
	}
	if err := os.WriteFile("example.idx", []byte(idx.String()), 0o644); err != nil {
		panic(err)
	}
	// the first location is missing: the next is used, as pywb does
	if err := os.WriteFile("example.loc", []byte("example\tno-such-dir/example.cdx.gz\texample-zipnum.cdx.gz\n"), 0o644); err != nil {
		panic(err)
	}
}
