package decompress

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// The salvage of an xz file cut short.
//
// ulikunitz/xz's LZMA2 reader decodes each chunk (up to 2 MiB of output) in
// one go and keeps its truncation error: the decoded part of the chunk
// being cut is lost, where `xz -dc` writes every byte decoded before the
// cut. xzSalvage decodes the file again from its first byte with a small
// decoder of its own (LZMA2 only, the filter xz uses for text) that stops
// at the first symbol whose input is missing, and returns what it decoded
// after the skip bytes already delivered. It runs only on that error path,
// so a truncated xz file is decoded twice; an intact one never is.
//
// Its output is used only when its first skip bytes have the CRC-32 of
// the bytes the library delivered, so a disagreement between the two
// decoders cannot hand out wrong bytes; it then gives nothing.

// errShort: the input ends inside a symbol (the normal end of a salvage).
var errShort = errors.New("input ends")

// errSalvage: the decoder cannot go on for another reason (an unsupported
// filter, damage): no salvage.
var errSalvage = errors.New("xz salvage: unsupported or damaged stream")

// xzCheckSize is the size of the block check by check type (xz format
// §2.1.1.2): none, CRC32, CRC64, SHA-256 and the reserved ones.
var xzCheckSize = [16]int{0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64}

// maxSalvageDict bounds the dictionary the salvage decoder allocates.
const maxSalvageDict = 256 << 20

// xzSalvage returns the bytes after the first skip that the xz stream in
// src decodes to before its input ends (at most limit of them), or nil when
// there are none or they cannot be trusted (see above); sum is the CRC-32
// (IEEE) of the first skip bytes.
func xzSalvage(src io.Reader, skip int64, sum uint32, limit int) []byte {
	s := &salvage{in: bufio.NewReaderSize(src, 1<<16), skip: skip, limit: limit}
	err := s.streams()
	if !errors.Is(err, errShort) || s.pos < skip || s.crc != sum || s.over {
		return nil
	}
	return s.tail
}

type salvage struct {
	in    *bufio.Reader
	skip  int64
	limit int
	pos   int64 // bytes decoded
	crc   uint32
	tail  []byte
	over  bool
	d     *lzma2Dec
}

// emit takes decoded bytes in order.
func (s *salvage) emit(b []byte) {
	if s.pos < s.skip {
		k := int(min(int64(len(b)), s.skip-s.pos))
		s.crc = crc32.Update(s.crc, crc32.IEEETable, b[:k])
		s.pos += int64(k)
		b = b[k:]
	}
	if len(b) == 0 {
		return
	}
	if len(s.tail)+len(b) > s.limit {
		s.over = true
		return
	}
	s.tail = append(s.tail, b...)
	s.pos += int64(len(b))
}

// read fills b or reports errShort.
func (s *salvage) read(b []byte) error {
	if _, err := io.ReadFull(s.in, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errShort
		}
		return err
	}
	return nil
}

func (s *salvage) byte() (byte, error) {
	var b [1]byte
	err := s.read(b[:])
	return b[0], err
}

// uvarint reads a multibyte integer (xz format §1.2) and returns it and
// its length in bytes.
func (s *salvage) uvarint() (uint64, int, error) {
	var v uint64
	for i := 0; i < 9; i++ {
		b, err := s.byte()
		if err != nil {
			return 0, 0, err
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			return v, i + 1, nil
		}
	}
	return 0, 0, errSalvage
}

// streams reads concatenated xz streams (each: header, blocks, index,
// footer, then zero padding in groups of 4) until the input ends.
func (s *salvage) streams() error {
	var hdr [12]byte
	if err := s.read(hdr[:]); err != nil {
		return err
	}
	for {
		if !bytes.Equal(hdr[:6], []byte{0xfd, '7', 'z', 'X', 'Z', 0}) || hdr[6] != 0 || hdr[7] > 0x0f {
			return errSalvage
		}
		check := xzCheckSize[hdr[7]]
		for {
			b, err := s.byte()
			if err != nil {
				return err
			}
			if b == 0 { // index indicator
				break
			}
			if err := s.block(int(b), check); err != nil {
				return err
			}
		}
		if err := s.index(); err != nil {
			return err
		}
		var footer [12]byte
		if err := s.read(footer[:]); err != nil {
			return err
		}
		// Stream padding, then the next stream's header.
		for {
			if err := s.read(hdr[:4]); err != nil {
				return err
			}
			if binary.LittleEndian.Uint32(hdr[:4]) != 0 {
				break
			}
		}
		if err := s.read(hdr[4:]); err != nil {
			return err
		}
	}
}

// block reads one block whose header size byte was b: the header (one
// filter, LZMA2), the LZMA2 chunks, the padding to 4 bytes and the check.
func (s *salvage) block(b, check int) error {
	hsize := (b + 1) * 4
	h := make([]byte, hsize-1)
	if err := s.read(h); err != nil {
		return err
	}
	flags := h[0]
	r := bytes.NewReader(h[1:])
	if flags&0x40 != 0 {
		if _, err := binary.ReadUvarint(r); err != nil {
			return errSalvage
		}
	}
	if flags&0x80 != 0 {
		if _, err := binary.ReadUvarint(r); err != nil {
			return errSalvage
		}
	}
	id, err1 := binary.ReadUvarint(r)
	psize, err2 := binary.ReadUvarint(r)
	prop, err3 := r.ReadByte()
	if flags&3 != 0 || err1 != nil || err2 != nil || err3 != nil || id != 0x21 || psize != 1 || prop > 40 {
		return errSalvage // not a single LZMA2 filter
	}
	dictCap := uint64(2|prop&1) << (prop/2 + 11)
	if prop == 40 {
		dictCap = 1<<32 - 1
	}
	if dictCap > maxSalvageDict {
		return errSalvage
	}
	if s.d == nil || s.d.dictCap < int(dictCap) {
		s.d = newLZMA2Dec(int(max(dictCap, 4096)), s.emit)
	}
	s.d.resetDict()
	s.d.propsSet = false
	n, err := s.d.chunks(s)
	if err != nil {
		return err
	}
	// The block (header and data) is padded to a multiple of 4 bytes.
	pad := (4 - (hsize+int(n%4))%4) % 4
	return s.read(make([]byte, pad+check))
}

// index skips the index: record count, records (two integers each),
// padding to 4 bytes, CRC32.
func (s *salvage) index() error {
	count, size, err := s.uvarint()
	if err != nil {
		return err
	}
	size++ // the indicator
	for i := uint64(0); i < 2*count; i++ {
		_, k, err := s.uvarint()
		if err != nil {
			return err
		}
		size += k
	}
	return s.read(make([]byte, (4-size%4)%4+4))
}

// lzma2Dec decodes LZMA2 chunks (xz format, LZMA SDK): the range decoder
// reads a byte before a bit only when it needs one (as liblzma does), so
// decoding stops at the first symbol whose input is missing.
type lzma2Dec struct {
	p          lzmaProbs
	state      uint32
	rep        [4]uint32
	lc, lp, pb uint32
	propsSet   bool

	dict    []byte // grows up to dictCap, then is a ring
	dictCap int
	dpos    int   // next write position in dict
	flushed int   // dict[flushed:dpos] not yet emitted
	full    int   // valid bytes in dict
	total   int64 // bytes since the dictionary reset
	emit    func([]byte)

	in        []byte // the chunk's compressed bytes (fewer when cut)
	ip        int
	rng, code uint32
	short     bool
}

type lenProbs struct {
	choice, choice2 uint16
	low, mid        [16][8]uint16
	high            [256]uint16
}

type lzmaProbs struct {
	isMatch, isRep0Long              [12 << 4]uint16
	isRep, isRepG0, isRepG1, isRepG2 [12]uint16
	posSlot                          [4][64]uint16
	specPos                          [114]uint16
	align                            [16]uint16
	matchLen, repLen                 lenProbs
	literal                          [0x300 << 4]uint16
}

func newLZMA2Dec(dictCap int, emit func([]byte)) *lzma2Dec {
	return &lzma2Dec{dict: make([]byte, min(dictCap, 1<<16)), dictCap: dictCap, emit: emit}
}

func (d *lzma2Dec) resetDict() {
	d.flush()
	d.dpos, d.flushed, d.full, d.total = 0, 0, 0, 0
}

func fill16(p []uint16) {
	for i := range p {
		p[i] = 1024
	}
}

func (l *lenProbs) reset() {
	l.choice, l.choice2 = 1024, 1024
	for i := range l.low {
		fill16(l.low[i][:])
		fill16(l.mid[i][:])
	}
	fill16(l.high[:])
}

func (d *lzma2Dec) resetState() {
	p := &d.p
	fill16(p.isMatch[:])
	fill16(p.isRep0Long[:])
	fill16(p.isRep[:])
	fill16(p.isRepG0[:])
	fill16(p.isRepG1[:])
	fill16(p.isRepG2[:])
	for i := range p.posSlot {
		fill16(p.posSlot[i][:])
	}
	fill16(p.specPos[:])
	fill16(p.align[:])
	p.matchLen.reset()
	p.repLen.reset()
	fill16(p.literal[:])
	d.state = 0
	d.rep = [4]uint32{}
}

func (d *lzma2Dec) flush() {
	if d.dpos > d.flushed {
		d.emit(d.dict[d.flushed:d.dpos])
	}
	d.flushed = d.dpos
}

func (d *lzma2Dec) put(b byte) {
	d.dict[d.dpos] = b
	d.dpos++
	d.total++
	if d.full < len(d.dict) {
		d.full++
	}
	if d.dpos == len(d.dict) {
		d.flush()
		if len(d.dict) < d.dictCap {
			// Not yet wrapped: the bytes are dict[:dpos], in order.
			nd := make([]byte, min(2*len(d.dict), d.dictCap))
			copy(nd, d.dict)
			d.dict = nd
		} else {
			d.dpos, d.flushed = 0, 0
		}
	}
}

// get returns the byte dist+1 positions back (0: the last byte).
func (d *lzma2Dec) get(dist uint32) byte {
	i := d.dpos - 1 - int(dist)
	if i < 0 {
		i += len(d.dict)
	}
	return d.dict[i]
}

// chunks decodes LZMA2 chunks up to the end marker and returns the bytes
// they took (for the block padding).
func (d *lzma2Dec) chunks(s *salvage) (int64, error) {
	var n int64
	defer d.flush()
	for {
		c, err := s.byte()
		if err != nil {
			return n, err
		}
		n++
		switch {
		case c == 0:
			return n, nil
		case c == 1 || c == 2: // uncompressed, with (1) or without a dictionary reset
			var sz [2]byte
			if err := s.read(sz[:]); err != nil {
				return n, err
			}
			n += 2
			if c == 1 {
				d.resetDict()
			}
			size := int(binary.BigEndian.Uint16(sz[:])) + 1
			buf := make([]byte, size)
			k, err := io.ReadFull(s.in, buf)
			for _, b := range buf[:k] {
				d.put(b)
			}
			n += int64(k)
			if err != nil {
				return n, errShort
			}
		case c >= 0x80:
			var hb [4]byte
			if err := s.read(hb[:]); err != nil {
				return n, err
			}
			n += 4
			usize := int(c&0x1f)<<16 + int(binary.BigEndian.Uint16(hb[:2])) + 1
			csize := int(binary.BigEndian.Uint16(hb[2:])) + 1
			reset := (c >> 5) & 3
			if reset == 3 {
				d.resetDict()
			}
			if reset >= 2 {
				prop, err := s.byte()
				if err != nil {
					return n, err
				}
				n++
				if prop >= 9*5*5 {
					return n, errSalvage
				}
				d.lc, d.lp, d.pb = uint32(prop%9), uint32(prop/9%5), uint32(prop/45)
				if d.lc+d.lp > 4 {
					return n, errSalvage
				}
				d.propsSet = true
			}
			if !d.propsSet {
				return n, errSalvage
			}
			if reset >= 1 {
				d.resetState()
			}
			if cap(d.in) < csize {
				d.in = make([]byte, 0, 1<<16)
			}
			d.in = d.in[:csize]
			k, rerr := io.ReadFull(s.in, d.in)
			n += int64(k)
			d.in = d.in[:k]
			if err := d.decode(usize); err != nil {
				return n, err
			}
			if rerr != nil {
				return n, errShort
			}
		default:
			return n, errSalvage
		}
	}
}

func (d *lzma2Dec) bit(p *uint16) uint32 {
	if d.rng < 1<<24 {
		if d.ip >= len(d.in) {
			d.short = true
			return 0
		}
		d.rng <<= 8
		d.code = d.code<<8 | uint32(d.in[d.ip])
		d.ip++
	}
	bound := (d.rng >> 11) * uint32(*p)
	if d.code < bound {
		d.rng = bound
		*p += (2048 - *p) >> 5
		return 0
	}
	d.rng -= bound
	d.code -= bound
	*p -= *p >> 5
	return 1
}

// tree decodes a bit tree of limit symbols (a power of two), most
// significant bit first; the result is in [limit, 2·limit).
func (d *lzma2Dec) tree(p []uint16, limit uint32) uint32 {
	sym := uint32(1)
	for sym < limit {
		sym = sym<<1 | d.bit(&p[sym])
	}
	return sym
}

// reverse decodes n bits of a reverse bit tree, least significant first,
// and adds them to *v; the probability of symbol s is p[base+s] (s ≥ 1).
func (d *lzma2Dec) reverse(p []uint16, base int, n uint32, v *uint32) {
	sym := uint32(1)
	for i := uint32(0); i < n; i++ {
		b := d.bit(&p[base+int(sym)])
		sym = sym<<1 | b
		*v += b << i
	}
}

func (d *lzma2Dec) length(l *lenProbs, posState uint32) uint32 {
	if d.bit(&l.choice) == 0 {
		return 2 + d.tree(l.low[posState][:], 8) - 8
	}
	if d.bit(&l.choice2) == 0 {
		return 10 + d.tree(l.mid[posState][:], 8) - 8
	}
	return 18 + d.tree(l.high[:], 256) - 256
}

// decode decodes one LZMA chunk of usize bytes from d.in; errShort when
// d.in ends first (every whole symbol before is in the dictionary).
func (d *lzma2Dec) decode(usize int) error {
	d.short = false
	if len(d.in) < 5 {
		return errShort
	}
	if d.in[0] != 0 {
		return errSalvage
	}
	d.code = binary.BigEndian.Uint32(d.in[1:5])
	d.rng = 0xffffffff
	d.ip = 5
	pbMask := uint32(1)<<d.pb - 1
	lpMask := uint32(1)<<d.lp - 1
	p := &d.p
	for end := d.total + int64(usize); d.total < end; {
		posState := uint32(d.total) & pbMask
		st := d.state
		if d.bit(&p.isMatch[st<<4|posState]) == 0 {
			var prev uint32
			if d.full > 0 {
				prev = uint32(d.get(0))
			}
			lit := p.literal[0x300*(((uint32(d.total)&lpMask)<<d.lc)+prev>>(8-d.lc)):][:0x300]
			var sym uint32
			if st < 7 {
				sym = d.tree(lit, 0x100)
			} else {
				if d.rep[0] >= uint32(d.full) {
					return errSalvage
				}
				match := uint32(d.get(d.rep[0])) << 1
				offset := uint32(0x100)
				sym = 1
				for sym < 0x100 {
					mbit := match & offset
					match <<= 1
					if d.bit(&lit[offset+mbit+sym]) == 1 {
						sym = sym<<1 | 1
						offset = mbit
					} else {
						sym <<= 1
						offset &^= mbit
					}
				}
			}
			if d.short {
				return errShort
			}
			d.put(byte(sym))
			switch {
			case st < 4:
				d.state = 0
			case st < 10:
				d.state = st - 3
			default:
				d.state = st - 6
			}
			continue
		}
		var n uint32
		if d.bit(&p.isRep[st]) == 1 {
			if d.bit(&p.isRepG0[st]) == 0 {
				if d.bit(&p.isRep0Long[st<<4|posState]) == 0 {
					if d.short {
						return errShort
					}
					if d.rep[0] >= uint32(d.full) {
						return errSalvage
					}
					d.state = 9
					if st >= 7 {
						d.state = 11
					}
					d.put(d.get(d.rep[0]))
					continue
				}
			} else {
				var dist uint32
				if d.bit(&p.isRepG1[st]) == 0 {
					dist = d.rep[1]
				} else {
					if d.bit(&p.isRepG2[st]) == 0 {
						dist = d.rep[2]
					} else {
						dist = d.rep[3]
						d.rep[3] = d.rep[2]
					}
					d.rep[2] = d.rep[1]
				}
				d.rep[1] = d.rep[0]
				d.rep[0] = dist
			}
			d.state = 8
			if st >= 7 {
				d.state = 11
			}
			n = d.length(&p.repLen, posState)
		} else {
			d.rep[3], d.rep[2], d.rep[1] = d.rep[2], d.rep[1], d.rep[0]
			d.state = 7
			if st >= 7 {
				d.state = 10
			}
			n = d.length(&p.matchLen, posState)
			slot := d.tree(p.posSlot[min(n-2, 3)][:], 64) - 64
			if slot < 4 {
				d.rep[0] = slot
			} else {
				direct := slot>>1 - 1
				dist := (2 | slot&1) << direct
				if slot < 14 {
					d.reverse(p.specPos[:], int(dist)-int(slot)-1, direct, &dist)
				} else {
					var v uint32
					for i := direct - 4; i > 0; i-- {
						if d.rng < 1<<24 {
							if d.ip >= len(d.in) {
								d.short = true
								break
							}
							d.rng <<= 8
							d.code = d.code<<8 | uint32(d.in[d.ip])
							d.ip++
						}
						d.rng >>= 1
						d.code -= d.rng
						t := 0 - d.code>>31 // all ones when code was below rng: a 0 bit
						d.code += d.rng & t
						v = v<<1 + t + 1
					}
					dist += v << 4
					d.reverse(p.align[:], 0, 4, &dist)
				}
				d.rep[0] = dist
			}
		}
		if d.short {
			return errShort
		}
		if d.rep[0] >= uint32(d.full) || int64(n) > end-d.total {
			return errSalvage
		}
		for ; n > 0; n-- {
			d.put(d.get(d.rep[0]))
		}
	}
	return nil
}
