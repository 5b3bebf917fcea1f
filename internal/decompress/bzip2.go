package decompress

// bzip2: telling a file cut short by its missing end-of-stream trailer
// (read sequentially then, so the error comes at the same place every time).

import (
	"os"
)

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
