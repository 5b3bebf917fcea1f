package decompress

// xz: the decoder of ulikunitz/xz, with the salvage of a file cut short
// (xzsalvage.go) delivered before the truncation error.

import (
	"errors"
	"hash/crc32"
	"io"

	"github.com/ulikunitz/xz"
)

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
