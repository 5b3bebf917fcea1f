package decompress

// The Reader: opening an input, starting the decompressor its format
// needs, reading and peeking at the decompressed bytes, counting and
// hashing the stored ones.

import (
	"archive/tar"
	"bufio"
	"compress/bzip2"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"

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

	ctx     context.Context
	opt     Options
	decoder string     // the decoder, when no system decoder runs (see Decoder)
	ext     *extStream // the system decoder, when one runs
	szTool  *tool      // the system decoder of a 7z archive it can extract
	szPath  string     // the archive's absolute path, for szTool
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
//
// xz, LZMA-alone and 7z files are decoded by the system's xz or 7z when
// one is on PATH (see OpenContext); Open is OpenContext with a context
// that is never cancelled and the default Options.
func Open(path string) (*Reader, error) {
	return OpenContext(context.Background(), path, Options{})
}

// OpenContext is Open with a context and options. Unless opt.Builtin is
// set, a named xz or LZMA-alone file, and a 7z archive holding a single
// file, are decoded by a system decoder run as a child process — XZ
// Utils' xz (5.2 or later) or 7-Zip's 7zz, 7z or 7za (16.02 or later),
// found on PATH and checked by the version they print — which takes
// about half the CPU of the built-in decoders and runs beside the
// parser. Its output is the built-in decoder's, byte for byte and error
// for error (see holdBack in extstream.go, and its exceptions): when it
// fails, the built-in decoder takes over. Standard input is decoded
// in-process (it cannot be decoded a second time). Cancelling ctx kills
// the child process; so does Close. Decoder says which decoder ran.
func OpenContext(ctx context.Context, path string, opt Options) (*Reader, error) {
	if path == "-" {
		return open(ctx, os.Stdin, "<stdin>", false, opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return open(ctx, f, path, true, opt)
}

// open reads f; owned files are closed by Close and may be read at random
// (7z), others (standard input, pipes) are read once.
func open(ctx context.Context, f *os.File, path string, owned bool, opt Options) (*Reader, error) {
	r := &Reader{name: path, size: -1, ctx: ctx, opt: opt}
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
	if r.format != Plain {
		r.decoder = Builtin
	}
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
	case XZ, LZMA:
		if r.startTool(br) {
			break
		}
		s, err := r.builtinLZMA(br, r.trailingLZMA)
		if err != nil {
			return r.headerErr(err)
		}
		r.stream = s
	case SevenZip:
		return r.open7z(f, br)
	default:
		r.stream = br
	}
	return nil
}

// builtinLZMA is the built-in decoder of an xz or LZMA-alone stream
// read from br; trailing checks what follows an LZMA-alone stream.
func (r *Reader) builtinLZMA(br *bufio.Reader, trailing func() error) (io.Reader, error) {
	if r.format == XZ {
		zr, err := xz.NewReader(br)
		if err != nil {
			return nil, err
		}
		return &xzStream{zr: zr, r: r}, nil
	}
	zr, err := lzma.NewReader(br)
	if err != nil {
		return nil, err
	}
	return &lzmaStream{zr: zr, trailing: trailing}, nil
}

// Decoder names what decodes the input: "" for a plain one, Builtin for
// revisit's own decoders — with the reason in brackets when a system
// decoder could have been used for the format but was not — or the
// system decoder and its version ("xz 5.4.1", "7z 25.01"), followed by
// ", then builtin" when it failed and the built-in decoder took over.
func (r *Reader) Decoder() string {
	if r.ext != nil {
		return r.ext.label()
	}
	return r.decoder
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

// takeOpenErr returns the damage Open found, once; the input is then done.
func (r *Reader) takeOpenErr() error {
	err := r.openErr
	if err != nil {
		r.openErr, r.done, r.failed = nil, true, true
	}
	return err
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

// SHA256 reads whatever stored bytes the decompressor has not consumed
// (trailing padding) and returns the hex SHA-256 of all stored bytes. Call it
// after the last member was read to its end.
func (r *Reader) SHA256() (string, error) {
	if r.sum != "" {
		return r.sum, nil
	}
	if r.ext != nil {
		// A system decoder still running could be reading the stored
		// bytes (xz's standard input): stop it before reading them here.
		r.ext.close()
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
	if r.ext != nil {
		r.ext.close()
	}
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
