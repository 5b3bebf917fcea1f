package logs

// Gzip inputs member by member, and ZipNum clusters (pywb's, Common
// Crawl's): a ZipNum shard (.cdx.gz) is a series of gzip members, each a
// block of index lines, the last of which may end without a newline;
// pywb reads it block by block (warcserver/index/zipnum.py), so a block's
// end ends a line. Read as one gzip stream the blocks would glue the last
// line of one to the first of the next. A cluster is the shards plus a
// secondary index (.idx, or .summary) of one line per block,
// "urlkey timestamp<TAB>shard<TAB>offset<TAB>length[<TAB>block number]",
// and a .loc file beside it naming where each shard is,
// "shard<TAB>location<TAB>location…" (tried in order; relative to the
// .loc's directory); without a .loc the shard is the file of that name
// beside the index (Common Crawl's cluster.idx and cdx-NNNNN.gz).

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/revisit-dev/revisit/internal/decompress"
)

// gzipLines is the data of a gzip stream read member by member (RFC 1952:
// a file may hold several, one after the other), with a line ended at the
// end of every member whose data does not end one: a ZipNum block. BGZF
// blocks (bgzip's, marked by the header's extra subfield "BC") cut one
// stream into 64 KiB pieces anywhere, inside lines: no line is ended there.
type gzipLines struct {
	name    string
	br      *bufio.Reader // the stored bytes
	zr      *gzip.Reader
	started bool
	last    byte  // the last byte of the member's data delivered (0: none)
	bgzf    bool  // the current member is a BGZF block
	ended   bool  // the current member ended (its io.EOF seen)
	newline bool  // a '\n' to deliver before the next member's data
	done    bool  // no member after the last
	out     int64 // bytes delivered
	// Members counts the members read, LineEnds the line ends put at
	// their ends.
	Members, LineEnds int64
}

func newGzipLines(name string, stored io.Reader) *gzipLines {
	return &gzipLines{name: name, br: bufio.NewReaderSize(stored, 1<<20)}
}

// isBGZF: the gzip header's extra field holds the BGZF subfield (SI1 'B',
// SI2 'C').
func isBGZF(extra []byte) bool {
	for len(extra) >= 4 {
		n := int(extra[2]) | int(extra[3])<<8
		if extra[0] == 'B' && extra[1] == 'C' {
			return true
		}
		if len(extra) < 4+n {
			return false
		}
		extra = extra[4+n:]
	}
	return false
}

// next starts the next member: io.EOF when there is none.
func (g *gzipLines) next() error {
	var err error
	if !g.started {
		g.started = true
		g.zr, err = gzip.NewReader(g.br)
	} else {
		err = g.zr.Reset(g.br)
	}
	if err != nil {
		return err
	}
	g.zr.Multistream(false)
	g.bgzf, g.last, g.ended = isBGZF(g.zr.Header.Extra), 0, false
	g.Members++
	return nil
}

func (g *gzipLines) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		switch {
		case g.done:
			return 0, io.EOF
		case g.newline:
			g.newline = false
			p[0] = '\n'
			g.out++
			return 1, nil
		case !g.started || g.ended:
			cut := g.started && g.last != 0 && g.last != '\n' && !g.bgzf // the member ended inside a line
			if err := g.next(); err == io.EOF && g.started {
				g.done = true
				continue
			} else if err != nil {
				return 0, g.corrupt(err)
			}
			if cut {
				g.newline = true
				g.LineEnds++
			}
			continue
		}
		n, err := g.zr.Read(p)
		if n > 0 {
			g.last = p[n-1]
			g.out += int64(n)
		}
		if err == io.EOF {
			g.ended = true
			err = nil
		}
		if err != nil {
			return n, g.corrupt(err)
		}
		if n > 0 {
			return n, nil
		}
	}
}

// corrupt is a failure of the stream, as internal/decompress reports one.
func (g *gzipLines) corrupt(err error) error {
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("%v (%w)", err, io.ErrUnexpectedEOF)
	}
	return &decompress.CorruptError{File: g.name, Format: decompress.Gzip, Offset: g.out, Err: err, Truncated: errors.Is(err, io.ErrUnexpectedEOF)}
}

// isGzipFile reports whether path is a regular file that begins as gzip.
func isGzipFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [16]byte
	n, _ := io.ReadFull(f, head[:])
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular() && decompress.Detect(head[:n], path) == decompress.Gzip
}

// readGzip reads a gzip file member by member (gzipLines), with what
// readInput records of an input: its counts, format and fingerprint (the
// SHA-256 of the stored bytes, hashed as they are read).
func (r *reader) readGzip(path string) error {
	f, size, err := r.openInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	g := newGzipLines(path, io.TeeReader(f, h))
	format, err := r.readStream(g)
	if err != nil {
		var ce *decompress.CorruptError
		if !r.opt.SkipBad || !errors.As(err, &ce) {
			return err
		}
		r.bad("corrupt")
	}
	r.in.Format = format + "+" + decompress.Gzip
	if g.LineEnds > 0 {
		r.logf("observations %s: %d gzip members, %d of which ended inside a line (ZipNum blocks): each ended its line", path, g.Members, g.LineEnds)
	}
	return r.printStored(path, size, f, h)
}

// openInput opens the input file path, read directly (not through
// internal/decompress), as the input now read: its counts begin (r.in).
func (r *reader) openInput(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("observations %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("observations %s: %w", path, err)
	}
	r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: path, Size: fi.Size()})
	r.in = &r.stats.Inputs[len(r.stats.Inputs)-1]
	r.name = path
	return f, fi.Size(), nil
}

// printStored records the fingerprint of input path whose stored bytes
// were hashed into h as far as they were read from f: the rest is hashed
// too (bytes after a corrupt member).
func (r *reader) printStored(path string, size int64, f io.Reader, h hash.Hash) error {
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("observations %s: %w", path, err)
	}
	r.stats.Prints = append(r.stats.Prints, Print{Name: path, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// idxLine is one line of a ZipNum secondary index: a block.
type idxLine struct {
	key           string // "urlkey timestamp" of the block's first line
	shard         string
	offset, bytes int64
}

// parseIdx reads a ZipNum index line: 4 or 5 tab-separated fields, the
// first "urlkey timestamp", the offset and length non-negative integers
// (the block number, when there, one too).
func parseIdx(line string) (idxLine, bool) {
	fs := strings.Split(strings.TrimRight(line, "\r"), "\t")
	if len(fs) != 4 && len(fs) != 5 {
		return idxLine{}, false
	}
	key, ts, ok := strings.Cut(fs[0], " ")
	if !ok || key == "" || !isDigits(ts) || fs[1] == "" || len(fs) == 5 && !isDigits(fs[4]) {
		return idxLine{}, false
	}
	off, err1 := strconv.ParseInt(fs[2], 10, 64)
	n, err2 := strconv.ParseInt(fs[3], 10, 64)
	if err1 != nil || err2 != nil || off < 0 || n <= 0 {
		return idxLine{}, false
	}
	return idxLine{key: fs[0], shard: fs[1], offset: off, bytes: n}, true
}

// isIdxFile reports whether path is an uncompressed file whose first
// line is a ZipNum index line.
func isIdxFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if decompress.Detect(head[:n], path) != decompress.Plain {
		return false
	}
	line, err := firstLineOf(io.NewSectionReader(f, 0, fi.Size()), 4096)
	if err != nil {
		return false
	}
	_, ok := parseIdx(line)
	return ok
}

// locations are the places of each shard of the cluster of index idx: from
// the .loc file beside it (its name with .loc for its extension), or,
// without one, the file of the shard's name beside the index; and the
// .loc's name ("" without one).
func locations(idx string) (map[string][]string, string, error) {
	loc := strings.TrimSuffix(idx, filepath.Ext(idx)) + ".loc"
	b, err := os.ReadFile(loc)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("observations %s: its shards' locations: %w", idx, err)
	}
	m := map[string][]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 2 || fs[0] == "" {
			return nil, "", fmt.Errorf("observations %s line %d: want shard<TAB>location…, got %.80q", loc, i+1, line)
		}
		var paths []string
		for _, p := range fs[1:] {
			if p == "" {
				continue
			}
			if strings.Contains(p, "://") {
				continue // a remote location: not read
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(loc), p)
			}
			paths = append(paths, p)
		}
		m[fs[0]] = append(m[fs[0]], paths...)
	}
	return m, loc, nil
}

// readCluster reads the ZipNum cluster of index idx: every block it lists,
// in its order, from the first location of its shard that is a file, each
// a gzip stream whose end ends a line; a bad line is named by the block
// (index line, shard and bytes). The blocks of each shard must tile it, so
// that no record of a shard is left unread or read twice. The index is one
// input (its format "cdx+zipnum", its size and fingerprint the index's);
// the shards' bytes are not fingerprinted.
func (r *reader) readCluster(idx string) error {
	locs, locFile, err := locations(idx)
	if err != nil {
		return err
	}
	f, size, err := r.openInput(idx)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	sc := bufio.NewScanner(io.TeeReader(f, h))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	type shardFile struct {
		name string // in the index
		f    *os.File
		path string
		size int64
		end  int64     // the end of the last block read
		h    hash.Hash // of the blocks' bytes, which tile the shard: its SHA-256
	}
	var cur *shardFile
	var shards []Print        // the shards' fingerprints
	done := map[string]bool{} // shards whose blocks are behind
	closeCur := func() error {
		if cur == nil {
			return nil
		}
		cur.f.Close()
		if cur.end != cur.size {
			return fmt.Errorf("observations %s: the blocks it lists of shard %s end at byte %d of its %d: the records after them would not be read", idx, cur.path, cur.end, cur.size)
		}
		shards = append(shards, Print{Name: cur.path, Size: cur.size, SHA256: hex.EncodeToString(cur.h.Sum(nil))})
		return nil
	}
	defer func() {
		if cur != nil {
			cur.f.Close()
		}
	}()
	var st lineState
	format := ""
	for n := int64(1); sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		b, ok := parseIdx(line)
		if !ok {
			return &BadRecordError{File: idx, Line: n, Reason: "fields", Err: fmt.Errorf("not a ZipNum index line (urlkey timestamp<TAB>shard<TAB>offset<TAB>length<TAB>block): %.80q", line)}
		}
		if cur == nil || b.shard != cur.name {
			if done[b.shard] {
				return fmt.Errorf("observations %s line %d: shard %s again after other shards: the index is not in shard order", idx, n, b.shard)
			}
			if err := closeCur(); err != nil {
				return err
			}
			cur = nil
			done[b.shard] = true
			cands := locs[b.shard]
			if locFile == "" {
				cands = []string{filepath.Join(filepath.Dir(idx), b.shard)}
			}
			var tried []string
			for _, p := range cands {
				sf, err := os.Open(p)
				if err != nil {
					tried = append(tried, p)
					continue
				}
				st, err := sf.Stat()
				if err != nil || !st.Mode().IsRegular() {
					sf.Close()
					tried = append(tried, p)
					continue
				}
				cur = &shardFile{name: b.shard, f: sf, path: p, size: st.Size(), h: sha256.New()}
				break
			}
			if cur == nil {
				where := "the file of that name beside the index"
				if locFile != "" {
					where = fmt.Sprintf("%s lists %q", locFile, cands)
				}
				return fmt.Errorf("observations %s line %d: shard %s not found (%s; tried %q)", idx, n, b.shard, where, tried)
			}
		}
		if b.offset != cur.end {
			return fmt.Errorf("observations %s line %d: block at byte %d of shard %s, after a block ending at byte %d: the blocks must follow each other (records in between would be left out or read twice)", idx, n, b.offset, cur.path, cur.end)
		}
		if b.offset+b.bytes > cur.size {
			return fmt.Errorf("observations %s line %d: block of bytes %d…%d of shard %s, which has %d", idx, n, b.offset, b.offset+b.bytes, cur.path, cur.size)
		}
		cur.end = b.offset + b.bytes
		r.name = fmt.Sprintf("%s block %d (%s bytes %d…%d)", idx, n, cur.path, b.offset, b.offset+b.bytes)
		sec := io.NewSectionReader(cur.f, b.offset, b.bytes)
		g := newGzipLines(r.name, io.TeeReader(sec, cur.h))
		fm, err := r.scan(g, &st, -1)
		if fm != "" {
			format = fm
		}
		if err != nil {
			var ce *decompress.CorruptError
			if !r.opt.SkipBad || !errors.As(err, &ce) {
				return err
			}
			r.bad("corrupt")
		}
		if _, err := io.Copy(cur.h, sec); err != nil { // what the block's stream left unread
			return fmt.Errorf("observations %s: %w", cur.path, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("observations %s: %w", idx, err)
	}
	if err := closeCur(); err != nil {
		return err
	}
	cur = nil
	r.in.Format = format + "+zipnum"
	if err := r.printStored(idx, size, f, h); err != nil {
		return err
	}
	r.stats.Prints = append(r.stats.Prints, shards...) // after the index's, which is that of the input
	return nil
}
