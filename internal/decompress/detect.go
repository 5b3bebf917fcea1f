package decompress

// Sniffing: the compression of a stream from its first bytes (and, for
// LZMA-alone, its name), and tar headers in the decompressed bytes.

import (
	"bytes"
	"encoding/binary"
	"strings"
)

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
