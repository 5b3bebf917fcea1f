package decompress

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/klauspost/pgzip"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Compressed archive members. A member that is itself compressed (a plain
// tar of .xml.gz files, as `tar cf x.tar a.xml.gz` makes; a 7z holding a
// .bz2) is decompressed like a top-level input: its compression is detected
// from its first bytes (Detect, with the member's name for LZMA-alone), and
// Read and Peek return its decompressed bytes, so that callers sniff the
// content as they do for a file. When Next steps past it, the member is
// read to its end, so that its trailer (gzip CRC-32 and size, xz index and
// checks, bzip2 stream CRC, bytes after an LZMA-alone stream) is verified
// as a file's is; damage is a *CorruptError naming "archive:member" and the
// member's compression, and like any damage it ends the input. A member
// that is an archive itself (a tar or 7z inside the archive) is not
// opened: its bytes are read as they are. Unlike a named .xz file, an xz
// member cut short loses what the decoder held back (up to one 2 MiB LZMA2
// chunk): there is no file to decode a second time.

// memberStream is the current member's decompressor.
type memberStream struct {
	format  string // its compression (Plain when none); "" before the first member
	closers []func()
}

func (m *memberStream) close() {
	for _, c := range m.closers {
		c()
	}
	m.closers = nil
}

// MemberFormat is the compression of the current archive member: Plain,
// Gzip, …; "" outside an archive.
func (r *Reader) MemberFormat() string { return r.member.format }

// openMember sets the current member's content (r.cur) to raw's bytes,
// decompressed when they are compressed; name is the member's name as
// stored (for LZMA-alone's .lzma suffix).
func (r *Reader) openMember(raw io.Reader, name string) error {
	r.member.close()
	br := bufio.NewReaderSize(raw, peekSize)
	r.cur, r.member = br, memberStream{format: Plain}
	head, err := br.Peek(16)
	if err != nil && !errors.Is(err, io.EOF) {
		return r.wrapErr(err)
	}
	f := Detect(head, name)
	var s io.Reader
	var herr error
	switch f {
	case Gzip:
		zr, err := pgzip.NewReaderN(br, 1<<20, 8)
		if err == nil {
			s = zr
			r.member.closers = append(r.member.closers, func() { zr.Close() })
		}
		herr = err
	case Bzip2:
		s = bzip2.NewReader(br)
	case Zstd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<31))
		if err == nil {
			s = zr
			r.member.closers = append(r.member.closers, zr.Close)
		}
		herr = err
	case XZ:
		zr, err := xz.NewReader(br)
		if err == nil {
			s = &xzStream{zr: zr}
		}
		herr = err
	case LZMA:
		zr, err := lzma.NewReader(br)
		if err == nil {
			s = &lzmaStream{zr: zr, trailing: func() error {
				if _, perr := br.Peek(1); perr == nil {
					return errors.New("data after the end of the lzma stream")
				}
				return nil
			}}
		}
		herr = err
	default: // plain, or an archive inside the archive: read as it is
		return nil
	}
	r.member.format = f
	if herr != nil {
		r.failed = true
		_, perr := br.Peek(1)
		return &CorruptError{File: r.name + ":" + r.curName, Format: f, Truncated: errors.Is(perr, io.EOF) || errors.Is(herr, io.ErrUnexpectedEOF),
			Err: fmt.Errorf("cannot read the member's %s header: %w", f, noEOF(herr))}
	}
	r.cur = bufio.NewReaderSize(&stickyReader{r: s}, peekSize)
	return nil
}

// endMember reads the rest of a compressed member, so that its trailer is
// verified before the next member (or the end of the archive), and
// releases its decompressor.
func (r *Reader) endMember() error {
	defer r.member.close()
	if r.cur == nil || r.member.format == "" || r.member.format == Plain {
		return nil
	}
	n, err := io.Copy(io.Discard, r.cur)
	r.offset += n
	if err != nil {
		return r.wrapErr(err)
	}
	return nil
}
