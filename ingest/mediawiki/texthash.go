package mediawiki

import (
	"bytes"
	"crypto/sha1"
	"hash"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// Checksums of revision text. Dumps of export schema 0.4 and 0.5 (the
// real Anarchism history among them) have no <sha1>; MediaWiki's is the
// SHA-1 of the revision's text (its UTF-8 bytes) in base 36, zero-padded
// to 31 digits, and mwreverts computes the same from the text when the
// checksum is absent. With Options.SHA1 the reader does so for each
// revision whose text it reads while no <sha1> element has been seen in
// the dump: the text's character data is unescaped (CDATA sections taken
// as they are) and hashed as the scanner passes over it (never held whole:
// memory is the scanner's window). Once a <sha1> has been seen (every dump
// since schema 0.6 has one per revision) no more text is hashed, and a revision's
// own <sha1> always wins over the hash of its text. Deleted text (<text
// deleted="deleted"/>) and a stub's text (<text id="…" bytes="…"/>: stub
// dumps hold no text, and before schema 0.6 no <sha1> either) have no
// checksum; empty text (<text/>, <text bytes="0"/>) is the SHA-1 of no
// bytes (emptyText).

// emptyText reports whether a self-closing <text …/> tag stands for the
// empty text, whose checksum is known (the SHA-1 of no bytes): it says
// bytes="0", or it has no size and no address of stored text (schema
// 0.3's <text xml:space="preserve" />). A stub dump's <text id="…"
// bytes="…"/> (location="…" since schema 0.11) stands for text that is
// not in the dump, and deleted text (deleted="deleted") for text nobody
// may see: neither has a checksum.
func emptyText(tag []byte) bool {
	if attr(tag, "deleted") != "" {
		return false
	}
	if b := attr(tag, "bytes"); b != "" {
		return b == "0"
	}
	return attr(tag, "id") == "" && attr(tag, "location") == ""
}

// TextSHA1 is MediaWiki's rev_sha1 of text: the SHA-1 of its bytes in base
// 36, zero-padded to 31 digits.
func TextSHA1(text []byte) string {
	s := sha1.Sum(text)
	return base36(s[:])
}

func base36(sum []byte) string {
	v := new(big.Int).SetBytes(sum).Text(36)
	if len(v) < 31 {
		v = string(bytes.Repeat([]byte{'0'}, 31-len(v))) + v
	}
	return v
}

// maxEntity is the longest entity or character reference unescapeTo
// recognises (&#x10FFFF; is 10 bytes): a chunk boundary closer than that
// to a '&' is moved before it.
const maxEntity = 12

// unescapeTo writes the character data b, with its entity and character
// references decoded, to h, through scratch (returned for reuse: one
// Write per chunk, not one per reference). A malformed reference is
// written as it is (text is not validated; the checksum of such text then
// matches only text with the same bytes).
func unescapeTo(h hash.Hash, b, scratch []byte) []byte {
	if bytes.IndexByte(b, '&') < 0 {
		h.Write(b)
		return scratch
	}
	out := scratch[:0]
	for {
		i := bytes.IndexByte(b, '&')
		if i < 0 {
			out = append(out, b...)
			h.Write(out)
			return out
		}
		out = append(out, b[:i]...)
		b = b[i:]
		semi := bytes.IndexByte(b[:min(len(b), maxEntity)], ';')
		if semi < 0 {
			out = append(out, b[0])
			b = b[1:]
			continue
		}
		ent := b[1:semi]
		if c, ok := predefinedEntity(ent); ok {
			out = append(out, c)
		} else {
			var r uint64
			err := strconv.ErrSyntax
			if len(ent) >= 2 && ent[0] == '#' {
				if ent[1] == 'x' || ent[1] == 'X' {
					r, err = strconv.ParseUint(string(ent[2:]), 16, 32)
				} else {
					r, err = strconv.ParseUint(string(ent[1:]), 10, 32)
				}
			}
			if err != nil || !xmlChar(r) {
				out = append(out, b[0])
				b = b[1:]
				continue
			}
			out = utf8.AppendRune(out, rune(r))
		}
		b = b[semi+1:]
	}
}

// hashText hashes the text of a <text> element after its start tag:
// its character data with entities decoded, and its CDATA sections as
// they are (their bytes are the text's; "&amp;" inside one is five
// characters), comments and processing instructions left out, chunk by
// chunk through the scanner's window, up to the next tag ("</text>":
// text holds no other). It returns the text's TextSHA1; ok is false at
// the end of input.
func (r *Reader) hashText() (sum string, ok bool) {
	s := r.s
	h := r.textHash
	if h == nil {
		h = sha1.New()
		r.textHash = h
	}
	h.Reset()
	for {
		if i := bytes.IndexByte(s.buf[s.pos:s.end], '<'); i >= 0 {
			r.scratch = unescapeTo(h, s.buf[s.pos:s.pos+i], r.scratch)
			s.pos += i
			s.has(len(cdataStart))
			switch b := s.buf[s.pos:s.end]; {
			case bytes.HasPrefix(b, cdataStart):
				s.pos += len(cdataStart)
				if !r.hashCDATA(h) {
					return "", false
				}
			default:
				skipped, ok := s.skipNothing()
				if !ok {
					return "", false
				}
				if !skipped {
					return base36(h.Sum(r.sumBuf[:0])), true
				}
			}
			continue
		}
		// Keep a '&' near the end for the next chunk: its reference may
		// be cut.
		cut := s.end
		if j := bytes.LastIndexByte(s.buf[max(s.pos, s.end-maxEntity):s.end], '&'); j >= 0 {
			cut = max(s.pos, s.end-maxEntity) + j
		}
		r.scratch = unescapeTo(h, s.buf[s.pos:cut], r.scratch)
		s.pos = cut
		if !s.more(s.pos) {
			return "", false
		}
	}
}

// hashCDATA hashes the bytes of a CDATA section from pos (after its
// "<![CDATA[") up to its "]]>", which it consumes; false at the end of
// input.
func (r *Reader) hashCDATA(h hash.Hash) bool {
	s := r.s
	for {
		if i := bytes.Index(s.buf[s.pos:s.end], cdataEnd); i >= 0 {
			h.Write(s.buf[s.pos : s.pos+i])
			s.pos += i + len(cdataEnd)
			return true
		}
		// Keep a tail that may hold the start of "]]>".
		cut := max(s.pos, s.end-(len(cdataEnd)-1))
		h.Write(s.buf[s.pos:cut])
		s.pos = cut
		if !s.more(s.pos) {
			return false
		}
	}
}
