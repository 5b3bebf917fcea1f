package decompress

// Archives (tar, possibly compressed, and 7z): opening a 7z, stepping
// from member to member, explaining a damaged tar, and member names fit
// for messages.

import (
	"archive/tar"
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bodgit/sevenzip"
)

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
	if path, err := filepath.Abs(f.Name()); err == nil {
		r.szPath = path
		r.szTool = r.sevenZipTool(z, path)
	}
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
			var member io.Reader = rc
			if r.szTool != nil {
				member = r.start7zMember(f, rc)
			}
			if err := r.openMember(member, f.Name); err != nil {
				return "", err
			}
			return name, nil
		}
		r.done = true
		return "", io.EOF
	}
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
