package decompress

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bodgit/sevenzip"
	"github.com/cosnicolaou/pbzip2"
	"github.com/klauspost/compress/zstd"
	"github.com/klauspost/pgzip"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Formats returned by Reader.Format.
const (
	Plain    = "plain"
	Gzip     = "gzip"
	Bzip2    = "bzip2"
	Zstd     = "zstd"
	XZ       = "xz"
	LZMA     = "lzma"
	SevenZip = "7z"
)

// Archive kinds returned by Reader.Archive.
const (
	NoArchive = ""
	Tar       = "tar"
	// SevenZip (the same string as the compression format) is the other archive kind.
)

// bufSize is the read-ahead buffer of the stored bytes; peekSize the
// buffer of the decompressed bytes: it only needs to hold what callers Peek
// at (the driver sniffs 64 KiB), and reads at least that large bypass it,
// so decompressed data is not copied one extra time.
const (
	bufSize  = 1 << 20
	peekSize = 64 << 10
)

// Reader is an opened input: Read returns decompressed bytes. When the input
// is an archive (tar, possibly compressed, or 7z), call Next to step to each
// member and Read reads that member; a plain stream is a single member with
// an empty name, so callers can always loop over Next.
type Reader struct {
	name    string
	format  string
	archive string
	size    int64

	src     *countingReader // the stored bytes
	br      *bufio.Reader   // the stored bytes, read ahead (what the decompressor reads)
	file    *os.File        // nil for stdin
	spooled string          // temp file holding stdin for 7z
	stream  io.Reader       // decompressed stream (nil for 7z)
	closers []func() error

	tr      *tar.Reader
	feed    *tarFeed // the decompressed bytes the tar reader reads
	sz      *sevenzip.Reader
	szNext  int
	szCur   io.ReadCloser
	cur     *bufio.Reader // current member's content
	curName string
	curSize int64
	offset  int64 // decompressed bytes of the current member read so far
	started bool
	done    bool
	failed  bool
	sum     string
	openErr error            // damage found by Open, returned by the first Next
	member  memberStream     // the current archive member's decompressor (see member.go)
	skipped map[string]int64 // archive members stepped over, by kind
}

// Open opens path ("-" is standard input) and detects its compression from
// the first bytes (LZMA-alone, which has no magic number, from a sane header
// or the .lzma name).
//
// Open fails only when the input cannot be opened or read. Damage found in
// the first bytes (a corrupt or cut compression header, a 7z archive cut
// before its header, a stream cut before its first decompressed byte) is
// returned by the first Next as a *CorruptError; Size, Format and SHA256
// still describe the stored bytes, so a caller that skips bad inputs can
// record this one.
func Open(path string) (*Reader, error) {
	if path == "-" {
		return open(os.Stdin, "<stdin>", false)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return open(f, path, true)
}

// open reads f; owned files are closed by Close and may be read at random
// (7z), others (standard input, pipes) are read once.
func open(f *os.File, path string, owned bool) (*Reader, error) {
	r := &Reader{name: path, size: -1}
	if owned {
		r.file = f
		r.closers = append(r.closers, f.Close)
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		r.size = st.Size()
	}
	r.src = &countingReader{r: f, h: newAsyncHash()}
	r.closers = append(r.closers, func() error { r.src.h.stop(); return nil })
	br := bufio.NewReaderSize(r.src, bufSize)
	r.br = br
	head, err := br.Peek(16)
	if err != nil && !errors.Is(err, io.EOF) {
		r.Close()
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	r.format = Detect(head, path)
	if err := r.openFormat(f, br); err != nil {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			r.Close()
			return nil, fmt.Errorf("%s: %s: %w", r.name, r.format, err)
		}
		r.failed, r.openErr = true, err
		return r, nil
	}
	if r.format != SevenZip {
		// A tar archive is recognised in the decompressed bytes. The
		// decoder's error is kept (sticky): bufio hands an error out once.
		dbr := bufio.NewReaderSize(&stickyReader{r: r.stream}, peekSize)
		r.stream = dbr
		h, err := dbr.Peek(512)
		if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) && len(h) == 0 {
			r.openErr = r.wrapErr(err)
			return r, nil
		}
		if IsTar(h) {
			r.archive = Tar
			r.feed = &tarFeed{r: dbr}
			r.tr = tar.NewReader(r.feed)
		} else {
			r.cur = dbr
		}
	}
	return r, nil
}

// headerErr is a decompressor that cannot start: damage unless reading the
// file failed. It is a truncation when every stored byte was read.
func (r *Reader) headerErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return err
	}
	_, perr := r.br.Peek(1)
	return &CorruptError{File: r.name, Format: r.format, Truncated: errors.Is(perr, io.EOF),
		Err: fmt.Errorf("cannot read the stream's header: %w", noEOF(err))}
}

func (r *Reader) openFormat(f *os.File, br *bufio.Reader) error {
	switch r.format {
	case Gzip:
		// pgzip decompresses in its own goroutine with read-ahead, so the
		// parser runs concurrently with inflation (see bench/ingest.sh).
		zr, err := pgzip.NewReaderN(br, 1<<20, 8)
		if err != nil {
			return r.headerErr(err)
		}
		r.stream = zr
		r.closers = append(r.closers, zr.Close)
	case Bzip2:
		if r.file != nil && r.size > 0 && !hasBzip2Trailer(r.file, r.size) {
			// A file cut short: the parallel decoder would report the
			// missing trailer at a moment that depends on scheduling,
			// after a varying number of blocks. The sequential decoder
			// delivers every complete block, then the error, every time.
			r.stream = bzip2.NewReader(br)
			break
		}
		ctx, cancel := context.WithCancel(context.Background())
		r.stream = pbzip2.NewReader(ctx, br, pbzip2.DecompressionOptions(pbzip2.BZConcurrency(runtime.GOMAXPROCS(0))))
		r.closers = append(r.closers, func() error { cancel(); return nil })
	case Zstd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<31))
		if err != nil {
			return r.headerErr(err)
		}
		r.stream = zr
		r.closers = append(r.closers, func() error { zr.Close(); return nil })
	case XZ:
		zr, err := xz.NewReader(br)
		if err != nil {
			return r.headerErr(err)
		}
		r.stream = &xzStream{zr: zr, r: r}
	case LZMA:
		zr, err := lzma.NewReader(br)
		if err != nil {
			return r.headerErr(err)
		}
		r.stream = &lzmaStream{zr: zr, trailing: r.trailingLZMA}
	case SevenZip:
		return r.open7z(f, br)
	default:
		r.stream = br
	}
	return nil
}

// open7z needs random access: a named file is read in place, standard input
// is spooled to a temporary file first (hashing it on the way).
func (r *Reader) open7z(f *os.File, br *bufio.Reader) error {
	if r.file == nil || r.size < 0 {
		tmp, err := os.CreateTemp("", "revisit-7z-*")
		if err != nil {
			return err
		}
		r.spooled = tmp.Name()
		r.closers = append(r.closers, tmp.Close, func() error { return os.Remove(tmp.Name()) })
		if _, err := io.Copy(tmp, br); err != nil {
			return fmt.Errorf("spooling standard input: %w", err)
		}
		f = tmp
		st, err := tmp.Stat()
		if err != nil {
			return err
		}
		r.size = st.Size()
		r.sum = hex.EncodeToString(r.src.h.Sum())
	}
	ra := &countingReaderAt{ra: f, n: &r.src.n}
	if r.spooled != "" {
		ra.n = new(atomic.Int64) // the spool already counted the stored bytes
	} else {
		r.src.n.Store(0) // count what the archive reader reads, not the sniffing
	}
	z, err := sevenzip.NewReader(ra, r.size)
	if err != nil {
		return sevenZipHeaderErr(f, r.size, r.name, err)
	}
	r.sz = z
	r.archive = SevenZip
	r.closers = append(r.closers, func() error {
		if r.szCur != nil {
			return r.szCur.Close()
		}
		return nil
	})
	return nil
}

// sevenZipHeaderErr explains a 7z archive whose header cannot be read. The
// header sits at the end of the file, at the offset and with the size the
// 32-byte start header gives (signature 6, version 2, CRC 4, next header
// offset 8, next header size 8, CRC 4): a file shorter than that was cut.
func sevenZipHeaderErr(f io.ReaderAt, size int64, name string, err error) error {
	err = noEOF(err)
	var sh [32]byte
	if _, rerr := f.ReadAt(sh[:], 0); rerr == nil {
		off, n := binary.LittleEndian.Uint64(sh[12:20]), binary.LittleEndian.Uint64(sh[20:28])
		if end := 32 + off + n; off < 1<<62 && n < 1<<62 && end > uint64(size) {
			return &CorruptError{File: name, Format: SevenZip, Truncated: true,
				Err: fmt.Errorf("the archive's header should end at byte %d, the file has %d bytes (%w)", end, size, err)}
		}
	}
	return &CorruptError{File: name, Format: SevenZip, Err: fmt.Errorf("cannot read the archive's header: %w", err)}
}

// Detect names the compression of a stream from its first bytes (at least
// 13 are needed for LZMA-alone) and, for LZMA-alone only, its name.
func Detect(head []byte, name string) string {
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return Gzip
	case len(head) >= 4 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1' && head[3] <= '9':
		return Bzip2
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return Zstd
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return XZ
	case bytes.HasPrefix(head, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}):
		return SevenZip
	case isLZMAHeader(head, strings.HasSuffix(strings.ToLower(name), ".lzma")):
		return LZMA
	}
	return Plain
}

// isLZMAHeader checks the 13-byte header of an LZMA-alone stream: the
// properties byte (lc,lp,pb) must be < 9·5·5 = 225, and the dictionary size
// must be 2^n or 2^n + 2^(n−1) (what every encoder writes) and the
// uncompressed size either unknown (all ones) or below 2^48. With the .lzma
// name any dictionary size ≥ 4 KiB is accepted.
func isLZMAHeader(h []byte, named bool) bool {
	if len(h) < 13 || h[0] >= 225 {
		return false
	}
	dict := binary.LittleEndian.Uint32(h[1:5])
	size := binary.LittleEndian.Uint64(h[5:13])
	if size != ^uint64(0) && size >= 1<<48 {
		return false
	}
	if named {
		return dict >= 1<<12
	}
	if dict < 1<<12 {
		return false
	}
	low := dict & -dict // lowest set bit
	rest := dict - low
	return rest == 0 || rest == low<<1
}

// IsTar reports whether a 512-byte block is a POSIX/GNU tar header
// ("ustar" magic at offset 257).
func IsTar(block []byte) bool {
	return len(block) >= 512 && bytes.Equal(block[257:262], []byte("ustar"))
}

// Name is the input's name as given ("<stdin>" for "-").
func (r *Reader) Name() string { return r.name }

// Format is the compression detected: plain, gzip, bzip2, zstd, xz, lzma or 7z.
func (r *Reader) Format() string { return r.format }

// Archive is "tar" or "7z" for archives, "" for a single stream.
func (r *Reader) Archive() string { return r.archive }

// Size is the stored (compressed) size in bytes, or −1 when unknown (a pipe).
func (r *Reader) Size() int64 { return r.size }

// Consumed is the number of stored bytes read so far; safe to call from
// another goroutine (a progress display).
func (r *Reader) Consumed() int64 { return r.src.n.Load() }

// Offset is the number of decompressed bytes of the current member read so
// far: the position to report in errors.
func (r *Reader) Offset() int64 { return r.offset }

// Failed reports whether the decompressor failed (a CorruptError was
// returned): nothing more can be read from this input.
func (r *Reader) Failed() bool { return r.failed }

// MemberName is the current member's path inside the archive ("" for a
// single stream), escaped as Next returns it.
func (r *Reader) MemberName() string { return r.curName }

// SkippedMembers counts the archive members Next stepped over because they
// hold no file data, by kind: "symlink", "hardlink", "device" (character or
// block), "fifo", "other_type" (any other tar type flag). Directories are
// not counted. The map is the Reader's own; nil when none was skipped.
func (r *Reader) SkippedMembers() map[string]int64 { return r.skipped }

func (r *Reader) skipMember(kind string) {
	if r.skipped == nil {
		r.skipped = map[string]int64{}
	}
	r.skipped[kind]++
}

// Next steps to the next member and returns its name ("" for a single
// stream) or io.EOF after the last one. Directories are stepped over;
// links, devices and FIFOs too, counted in SkippedMembers. Names are
// escaped when they hold non-printable characters (see PrintableName).
//
// Before io.EOF, Next reads the compressed stream to its end — past what
// the caller read of a single stream, past the tar end marker — so its
// trailer (gzip CRC-32 and size, xz index and checks, bzip2 stream CRC)
// is verified: damage there is a *CorruptError. Damage found by Open is
// returned by the first call. After a *CorruptError (Failed is true) Next
// returns io.EOF.
func (r *Reader) Next() (string, error) {
	if err := r.takeOpenErr(); err != nil {
		return "", err
	}
	if r.done || r.failed {
		return "", io.EOF
	}
	switch r.archive {
	case NoArchive:
		if r.started {
			r.done = true
			n, err := io.Copy(io.Discard, r.cur)
			r.offset += n
			if err != nil {
				return "", r.wrapErr(err)
			}
			return "", io.EOF
		}
		r.started = true
		r.offset = 0
		return "", nil
	case Tar:
		if err := r.endMember(); err != nil {
			return "", err
		}
		for {
			h, err := r.tr.Next()
			if errors.Is(err, io.EOF) {
				r.done = true
				r.curName, r.cur = "", nil
				// The end marker is not the end of the compressed
				// stream: read the padding and the trailer.
				if _, err := io.Copy(io.Discard, r.feed); err != nil {
					return "", r.tarErr(err)
				}
				return "", io.EOF
			}
			if err != nil {
				return "", r.tarErr(err)
			}
			switch h.Typeflag {
			case tar.TypeReg, tar.TypeCont, tar.TypeGNUSparse:
			case tar.TypeDir, tar.TypeXGlobalHeader:
				continue
			case tar.TypeSymlink:
				r.skipMember("symlink")
				continue
			case tar.TypeLink:
				r.skipMember("hardlink")
				continue
			case tar.TypeChar, tar.TypeBlock:
				r.skipMember("device")
				continue
			case tar.TypeFifo:
				r.skipMember("fifo")
				continue
			default:
				r.skipMember("other_type")
				continue
			}
			r.offset = 0
			r.curName, r.curSize = PrintableName(h.Name), h.Size
			if err := r.openMember(r.tr, h.Name); err != nil {
				return "", err
			}
			return r.curName, nil
		}
	default: // 7z
		if err := r.endMember(); err != nil {
			return "", err
		}
		if r.szCur != nil {
			r.szCur.Close()
			r.szCur = nil
		}
		for r.szNext < len(r.sz.File) {
			f := r.sz.File[r.szNext]
			r.szNext++
			name := PrintableName(f.Name)
			switch m := f.FileInfo().Mode(); {
			case m.IsDir():
				continue
			case m&os.ModeSymlink != 0:
				r.skipMember("symlink")
				continue
			case m&os.ModeDevice != 0:
				r.skipMember("device")
				continue
			case m&os.ModeNamedPipe != 0:
				r.skipMember("fifo")
				continue
			case !m.IsRegular():
				r.skipMember("other_type")
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return "", fmt.Errorf("%s: 7z member %s: %w", r.name, name, err)
			}
			r.offset = 0
			r.szCur = rc
			r.curName, r.curSize = name, int64(f.UncompressedSize)
			if err := r.openMember(rc, f.Name); err != nil {
				return "", err
			}
			return name, nil
		}
		r.done = true
		return "", io.EOF
	}
}

// takeOpenErr returns the damage Open found, once; the input is then done.
func (r *Reader) takeOpenErr() error {
	err := r.openErr
	if err != nil {
		r.openErr, r.done, r.failed = nil, true, true
	}
	return err
}

// tarErr explains a failure of the tar reader: the decompressor under it
// failed, the archive ends inside a header or a member, or a header is
// invalid. Positions are bytes of the tar archive (decompressed, for a
// compressed one).
func (r *Reader) tarErr(err error) error {
	r.failed = true
	at := "byte"
	if r.format != Plain {
		at = "decompressed byte"
	}
	if r.feed.err != nil {
		ce := r.corrupt(r.feed.err, r.name, r.format, r.feed.n)
		ce.Err = fmt.Errorf("reading the tar archive at %s %d: %w", at, r.feed.n, ce.Err)
		return ce
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &CorruptError{File: r.name, Format: Tar, Offset: r.feed.n, Truncated: true,
			Err: fmt.Errorf("the archive ends at %s %d, inside a header or a member: %w", at, r.feed.n, err)}
	}
	// The tar reader reads headers in 512-byte blocks: the bad one is
	// the last block read.
	off := max(r.feed.n-512, 0)
	return &CorruptError{File: r.name, Format: Tar, Offset: off,
		Err: fmt.Errorf("invalid tar header at %s %d of the archive: %w", at, off, err)}
}

// PrintableName is an archive member's name fit for messages and labels:
// unchanged when it is valid UTF-8 of printable characters
// (strconv.IsPrint), otherwise quoted and escaped by strconv.Quote, so a
// name cannot move the cursor, clear the terminal or start a fake line.
func PrintableName(name string) string {
	if !utf8.ValidString(name) {
		return strconv.Quote(name)
	}
	for _, c := range name {
		if !strconv.IsPrint(c) {
			return strconv.Quote(name)
		}
	}
	return name
}

// Read reads decompressed bytes of the current member (of the whole stream
// when it is not an archive). A truncated or corrupt stream returns an
// error; io.ErrUnexpectedEOF is returned for a stream cut short.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.takeOpenErr(); err != nil {
		return 0, err
	}
	if r.cur == nil {
		if r.archive != NoArchive {
			return 0, fmt.Errorf("%s: %s archive: call Next before Read", r.name, r.archive)
		}
		return 0, io.EOF
	}
	if !r.started && r.archive == NoArchive {
		r.started = true
	}
	n, err := r.cur.Read(p)
	r.offset += int64(n)
	// Only io.EOF itself is a clean end (io.Reader's contract); an error
	// that wraps it (a decoder's "reading header: EOF") is damage.
	if err != nil && err != io.EOF {
		return n, r.wrapErr(err)
	}
	return n, err
}

// Peek returns the next n decompressed bytes of the current member without
// consuming them (fewer at the end of the member, with the error). After a
// *CorruptError the bytes returned can still be read; Read then returns
// the error again.
func (r *Reader) Peek(n int) ([]byte, error) {
	if err := r.takeOpenErr(); err != nil {
		return nil, err
	}
	if r.cur == nil {
		return nil, io.EOF
	}
	b, err := r.cur.Peek(n)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return b, r.wrapErrAt(err, r.offset+int64(len(b))) // the error comes after the bytes peeked
	}
	return b, err
}

// bzip2EOS is the 48-bit end-of-stream magic of bzip2 (√π in BCD).
const bzip2EOS = 0x177245385090

// hasBzip2Trailer reports whether the file of the given size ends with a
// bzip2 end-of-stream trailer: the 48-bit magic, the 32-bit stream CRC and
// at most 7 zero bits of padding to the byte boundary (the trailer is not
// byte-aligned). A file without one was cut short (or has bytes after its
// last stream, which the parallel decoder rejects too).
func hasBzip2Trailer(f *os.File, size int64) bool {
	var b [11]byte
	if size < int64(len(b)) {
		return false
	}
	if _, err := f.ReadAt(b[:], size-int64(len(b))); err != nil {
		return true // cannot tell: leave it to the decoder
	}
	for pad := 0; pad < 8; pad++ {
		// The magic occupies bits [88-80-pad, 88-32-pad) of the 88 bits.
		start := 8 - pad
		if bitsAt(b[:], start, 48) == bzip2EOS && bitsAt(b[:], 88-pad, pad) == 0 {
			return true
		}
	}
	return false
}

// bitsAt reads n ≤ 64 bits of b starting at bit start (most significant
// bit first).
func bitsAt(b []byte, start, n int) uint64 {
	var v uint64
	for i := start; i < start+n; i++ {
		v = v<<1 | uint64(b[i/8]>>(7-i%8)&1)
	}
	return v
}

// CorruptError is a failure of the decompressor itself: the stored stream is
// truncated or damaged.
type CorruptError struct {
	File   string
	Format string
	Offset int64 // decompressed bytes delivered before the failure
	Err    error
	// Truncated: the stored stream ends before its end (the decoder wanted
	// more bytes, or a bzip2 file has no end-of-stream trailer).
	Truncated bool
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s: %s after %d decompressed bytes: %v", e.File, e.what(), e.Offset, e.Err)
}

func (e *CorruptError) what() string {
	if e.Truncated {
		return "truncated " + e.Format + " stream"
	}
	return e.Format + " stream is corrupt or truncated"
}

func (e *CorruptError) Unwrap() error { return e.Err }

// noEOF keeps io.EOF out of a CorruptError's chain: a decoder that met the
// end of its input too early says io.EOF, and callers test errors.Is(err,
// io.EOF) for a clean end. It becomes io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%v (%w)", err, io.ErrUnexpectedEOF)
	}
	return err
}

// Short is the message without the file and offset, for callers that
// report those already (a parser's *source.ParseError).
func (e *CorruptError) Short() string {
	return fmt.Sprintf("%s: %v", e.what(), e.Err)
}

func (r *Reader) wrapErr(err error) error { return r.wrapErrAt(err, r.offset) }

// wrapErrAt is wrapErr for a failure after offset decompressed bytes of
// the current member.
func (r *Reader) wrapErrAt(err error, offset int64) error {
	r.failed = true
	var ce *CorruptError
	if errors.As(err, &ce) {
		return err
	}
	name := r.name
	if r.curName != "" {
		name += ":" + r.curName
	}
	format := r.format
	switch {
	case r.member.format != "" && r.member.format != Plain && (r.feed == nil || r.feed.err == nil):
		format = r.member.format // the member's own decompressor failed
	case format == Plain && r.archive == Tar:
		format = Tar // an uncompressed tar cut short: the archive is what is truncated
	}
	return r.corrupt(err, name, format, offset)
}

// corrupt builds the CorruptError of a decoder failure after offset
// decompressed bytes.
func (r *Reader) corrupt(err error, name, format string, offset int64) *CorruptError {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce
	}
	err = noEOF(err)
	// The parallel bzip2 decoder looks for the stream's trailer before it
	// delivers the first block, so a cut file fails here, at offset 0.
	// (Files are checked for it first and read sequentially when it is
	// missing; standard input cannot be.)
	noTrailer := r.format == Bzip2 && strings.Contains(err.Error(), "failed to find trailer")
	truncated := errors.Is(err, io.ErrUnexpectedEOF) || noTrailer
	if noTrailer {
		err = fmt.Errorf("%w (the stream ends before the bzip2 end-of-stream trailer; from standard input the parallel decoder cannot tell how many blocks before the cut are whole, so what was read before the error varies)", err)
	}
	return &CorruptError{File: name, Format: format, Offset: offset, Err: err, Truncated: truncated}
}

// SHA256 reads whatever stored bytes the decompressor has not consumed
// (trailing padding) and returns the hex SHA-256 of all stored bytes. Call it
// after the last member was read to its end.
func (r *Reader) SHA256() (string, error) {
	if r.sum != "" {
		return r.sum, nil
	}
	if r.sz != nil && r.file != nil {
		// 7z is read at random: hash the file in one sequential pass.
		if _, err := r.file.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		h := sha256.New()
		if _, err := io.Copy(h, r.file); err != nil {
			return "", fmt.Errorf("%s: %w", r.name, err)
		}
		r.sum = hex.EncodeToString(h.Sum(nil))
		return r.sum, nil
	}
	if _, err := io.Copy(io.Discard, r.src); err != nil {
		return "", fmt.Errorf("%s: %w", r.name, err)
	}
	r.sum = hex.EncodeToString(r.src.h.Sum())
	return r.sum, nil
}

// Close releases the decompressors and the file (standard input is not
// closed).
func (r *Reader) Close() error {
	r.member.close()
	var first error
	for i := len(r.closers) - 1; i >= 0; i-- {
		if err := r.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	return first
}

// countingReader counts and hashes the stored bytes as the decompressor
// reads them.
type countingReader struct {
	r io.Reader
	h *asyncHash
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.h.Write(p[:n])
		c.n.Add(int64(n))
	}
	return n, err
}

type countingReaderAt struct {
	ra io.ReaderAt
	n  *atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.ra.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// stickyReader keeps returning the first error of r: bufio.Reader hands an
// error out once and would then read the failed decoder again.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// tarFeed counts the decompressed bytes the tar reader reads (it reads
// headers and data in whole 512-byte blocks, so the count locates a bad
// header) and keeps the decompressor's error, to tell it from the tar
// reader's own.
type tarFeed struct {
	r   io.Reader
	n   int64
	err error
}

func (t *tarFeed) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.n += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		t.err = err
	}
	return n, err
}

// lzmaStream is the LZMA-alone decoder of ulikunitz/xz with two fixes.
//
// A stream cut short delivers every byte decoded before the cut, as
// `lzma -dc` does: the decoder fills its dictionary buffer (up to the
// dictionary size, 8 MiB for lzma -6) before it hands anything out, and
// returns io.ErrUnexpectedEOF at the cut with that buffer still unread;
// it has then stopped (its end-of-stream flag is set), and further reads
// return the buffered bytes and io.EOF. So the truncation is held back
// until they are out.
//
// Bytes after the end of the stream are an error naming the stored offset
// where they start (`lzma -dc` rejects them too): the decoder reads its
// input byte by byte from the bufio.Reader, so it stops exactly at the end.
type lzmaStream struct {
	zr *lzma.Reader
	// trailing checks what follows the end of the stream: nil when
	// nothing does, else the error naming where the bytes after it start.
	trailing func() error
	trunc    error // the truncation, returned after the decoded bytes
	err      error // the final error
}

// trailingLZMA is lzmaStream.trailing for the stored bytes of r: the
// decoder read them from r.br, whose bytes not yet taken are after the end.
func (r *Reader) trailingLZMA() error {
	if _, perr := r.br.Peek(1); perr == nil {
		end := r.src.n.Load() - int64(r.br.Buffered())
		return fmt.Errorf("data after the end of the lzma stream, from byte %d of the file", end)
	}
	return nil
}

func (s *lzmaStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.zr.Read(p)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, io.ErrUnexpectedEOF) && s.trunc == nil:
		s.trunc = err
		if n > 0 {
			return n, nil
		}
		return s.Read(p)
	case errors.Is(err, io.EOF) && s.trunc != nil:
		s.err = s.trunc
	case errors.Is(err, io.EOF):
		s.err = io.EOF
		if terr := s.trailing(); terr != nil {
			s.err = terr
		}
	case s.trunc != nil:
		s.err = s.trunc // a failure while returning the buffered bytes: report the cut
	default:
		s.err = err
	}
	if n > 0 && s.err != io.EOF {
		return n, nil
	}
	return n, s.err
}

// xzStream is the xz decoder of ulikunitz/xz; when a named file is cut
// short, the bytes its LZMA2 reader decoded before the cut but did not
// return are recovered by xzSalvage (which re-decodes the file from its
// start) and delivered before the truncation error. It keeps the CRC-32
// of what it delivered for xzSalvage's check: ≈ 1/100 of the decoding
// time.
type xzStream struct {
	zr   *xz.Reader
	r    *Reader // nil for an archive member: no salvage pass
	n    int64
	crc  uint32
	tail []byte // salvaged bytes still to deliver
	err  error
}

// maxXZSalvage bounds the bytes salvaged: more than the 2 MiB of an LZMA2
// chunk, the most the library holds back.
const maxXZSalvage = 8 << 20

func (s *xzStream) Read(p []byte) (int, error) {
	if s.err != nil {
		if len(s.tail) > 0 {
			n := copy(p, s.tail)
			s.tail = s.tail[n:]
			return n, nil
		}
		return 0, s.err
	}
	n, err := s.zr.Read(p)
	s.crc = crc32.Update(s.crc, crc32.IEEETable, p[:n])
	s.n += int64(n)
	if err == nil || err == io.EOF {
		return n, err
	}
	s.err = err
	if errors.Is(err, io.ErrUnexpectedEOF) && s.r != nil && s.r.file != nil && s.r.size > 0 {
		s.tail = xzSalvage(io.NewSectionReader(s.r.file, 0, s.r.size), s.n, s.crc, maxXZSalvage)
	}
	if n > 0 || len(s.tail) > 0 {
		return n, nil
	}
	return 0, err
}
