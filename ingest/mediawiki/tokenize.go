package mediawiki

// The streaming tokenizer: the main loop from tag to tag, element names,
// character data (entities and CDATA), attributes, leaf elements, and the
// fast path through the elements every revision repeats.

import (
	"bytes"

	"github.com/revisit-dev/revisit/series"
)

func (r *Reader) next() (*series.RawPage, error) {
	s := r.s
	for {
		if r.inRev && !r.revBad {
			r.revisionBody()
		}
		// Inline fast path for the few bytes of indentation between tags.
		if i, lim := s.pos, min(s.end, s.pos+32); true {
			for i < lim && s.buf[i] != '<' {
				i++
			}
			if i < lim {
				s.pos = i
			} else if !s.skipToByte('<') {
				return nil, r.atEnd()
			}
		}
		if s.end-s.pos < 512 && !s.eof {
			s.more(s.pos) // keep short tags inside the window
		}
		// A CDATA section, a comment or a processing instruction is
		// stepped over whole: what it holds is never markup.
		if s.has(2) && (s.buf[s.pos+1] == '!' || s.buf[s.pos+1] == '?') {
			s.has(len(cdataStart))
			skipped, ok := s.skipSection()
			if !ok {
				return nil, r.atEnd()
			}
			if skipped {
				continue
			}
		}
		// Scan the element name, then (only if attributes follow) the '>'.
		buf := s.buf[s.pos:s.end]
		start := 1
		if len(buf) > 1 && buf[1] == '/' {
			start = 2
		}
		n := start
		for n < len(buf) && !nameEnd[buf[n]] {
			n++
		}
		gt := n
		if n >= len(buf) || buf[n] != '>' {
			gt = s.indexByte('>')
			if gt < 0 {
				return nil, r.atEnd()
			}
			buf = s.buf[s.pos:s.end]
			for n < gt && !nameEnd[buf[n]] {
				n++
			}
		}
		tag := buf[1:gt]
		name := buf[start:n]
		off := s.offset(s.pos)
		s.pos += gt + 1
		if len(tag) == 0 {
			if err := r.malformed(off, "empty tag <>"); err != nil {
				return nil, err
			}
			continue
		}
		switch tag[0] {
		case '/':
			p, err := r.endTag(name, off)
			if err != nil || p != nil {
				return p, err
			}
			continue
		case '!':
			continue // a declaration (<!DOCTYPE …>)
		}
		self := tag[len(tag)-1] == '/'
		if err := r.startTag(name, tag, self, off); err != nil {
			return nil, err
		}
	}
}

// nameEnd marks the bytes that end an element name.
var nameEnd = [256]bool{' ': true, '/': true, '>': true, '\t': true, '\n': true, '\r': true}

// content reads the character data at pos up to the next '<' (in
// place: valid until the scanner reads again).
func (r *Reader) content() ([]byte, error) {
	s := r.s
	i := s.indexByte('<')
	if i < 0 {
		return nil, r.atEnd()
	}
	c := s.buf[s.pos : s.pos+i]
	s.pos += i
	return c, nil
}

// The sections XML allows anywhere between tags: CDATA ("<![CDATA["
// text "]]>", the text as it is, up to the first "]]>": it may hold '<',
// '&' and whole tags, which are text), comments and processing
// instructions ("<?target …?>", the XML declaration among them: up to the
// first "?>", whatever '>' or tags come before it). Comments and
// processing instructions are nothing: neither text nor markup.
var (
	cdataStart   = []byte("<![CDATA[")
	cdataEnd     = []byte("]]>")
	commentStart = []byte("<!--")
	commentEnd   = []byte("-->")
	piStart      = []byte("<?")
	piEnd        = []byte("?>")
)

// skipNothing steps over a comment or a processing instruction at pos
// (their content is neither text nor markup). skipped is false when pos
// holds neither (the window must hold len(commentStart) bytes from pos
// when the input has them); ok is false when the input ends inside it.
func (s *scanner) skipNothing() (skipped, ok bool) {
	b := s.buf[s.pos:s.end]
	switch {
	case bytes.HasPrefix(b, commentStart):
		s.pos += len(commentStart)
		return true, s.skipPast(commentEnd)
	case bytes.HasPrefix(b, piStart):
		s.pos += len(piStart)
		return true, s.skipPast(piEnd)
	}
	return false, true
}

// skipSection steps over a CDATA section, a comment or a processing
// instruction at pos. skipped is false when pos holds none (the window
// must hold len(cdataStart) bytes from pos when the input has them); ok
// is false when the input ends inside it.
func (s *scanner) skipSection() (skipped, ok bool) {
	if bytes.HasPrefix(s.buf[s.pos:s.end], cdataStart) {
		s.pos += len(cdataStart)
		return true, s.skipPast(cdataEnd)
	}
	return s.skipNothing()
}

// charData reads the character data of a leaf element after its start
// tag — text with its entities decoded, CDATA sections as they are,
// comments and processing instructions left out — up to the next tag,
// and consumes "</name>" when
// that is the tag. The usual leaf, text up to its closing tag, is
// returned in place: v is valid until the scanner reads again. ok is
// false when it was not read: a bad entity or character reference is
// malformed XML (the error is malformed's), and the end of input inside
// it is atEnd's error.
func (r *Reader) charData(off int64, name string) (v []byte, ok bool, err error) {
	s := r.s
	var out []byte
	sections := false
	for {
		c, err := r.content()
		if err != nil {
			return nil, false, err
		}
		if !sections && s.pos+1 < s.end && s.buf[s.pos+1] != '!' && s.buf[s.pos+1] != '?' {
			// No section follows: the usual case.
			v := c
			if bytes.IndexByte(c, '&') >= 0 {
				if v, err = appendUnescaped(nil, c); err != nil {
					return nil, false, r.malformed(off, name+": bad character data: "+err.Error())
				}
			}
			s.closeLeaf(name)
			return v, true, nil
		}
		// A section may follow: c is kept before the window moves.
		sections = true
		if out, err = appendUnescaped(out, c); err != nil {
			return nil, false, r.malformed(off, name+": bad character data: "+err.Error())
		}
		s.has(len(cdataStart))
		switch b := s.buf[s.pos:s.end]; {
		case bytes.HasPrefix(b, cdataStart):
			end := s.index(cdataEnd)
			if end < 0 {
				return nil, false, r.atEnd()
			}
			out = append(out, s.buf[s.pos+len(cdataStart):s.pos+end]...)
			s.pos += end + len(cdataEnd)
		default:
			skipped, ok := s.skipNothing()
			if !ok {
				return nil, false, r.atEnd()
			}
			if !skipped {
				s.closeLeaf(name)
				return out, true, nil
			}
		}
	}
}

// textEnd closes a <text> element.
var textEnd = []byte("</text>")

// skipText steps over the character data of a <text> element and its
// closing tag: from '<' to '<' (text holds no other), over CDATA
// sections, comments and processing instructions (which may hold '<' and
// "</text>"), up to
// "</text>". It is false at the end of input.
func (s *scanner) skipText() bool {
	for {
		if !s.skipToByte('<') {
			return false
		}
		s.has(len(cdataStart))
		if bytes.HasPrefix(s.buf[s.pos:s.end], textEnd) {
			s.pos += len(textEnd)
			return true
		}
		skipped, ok := s.skipSection()
		if !ok {
			return false
		}
		if !skipped {
			s.pos++ // a stray '<' in malformed text: stepped over
		}
	}
}

// skipLeaf skips the character data after a start tag up to the next '<'
// within the window, and the closing tag "</name>" if that is what
// follows. name must point into the current window (no refill since the
// tag was read); outside the window nothing is skipped and the main loop
// carries on as usual.
func (s *scanner) skipLeaf(name []byte) {
	i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
	if i < 0 {
		return
	}
	s.pos += i
	b := s.buf[s.pos:s.end]
	if n := len(name); len(b) >= n+3 && b[1] == '/' && b[2+n] == '>' && string(b[2:2+n]) == string(name) {
		s.pos += n + 3
	}
}

// closeLeaf consumes "</name>" at the current position when it is there.
func (s *scanner) closeLeaf(name string) {
	b := s.buf[s.pos:s.end]
	if n := len(name); len(b) >= n+3 && b[1] == '/' && b[2+n] == '>' && string(b[2:2+n]) == name {
		s.pos += n + 3
	}
}

// attr returns the value of name="…" in a tag's bytes ("" if absent).
func attr(tag []byte, name string) string {
	i := 0
	for {
		j := bytes.Index(tag[i:], []byte(name+"="))
		if j < 0 {
			return ""
		}
		j += i
		if j > 0 && tag[j-1] != ' ' && tag[j-1] != '\t' && tag[j-1] != '\n' {
			i = j + len(name)
			continue
		}
		v := tag[j+len(name)+1:]
		if len(v) == 0 || (v[0] != '"' && v[0] != '\'') {
			return ""
		}
		k := bytes.IndexByte(v[1:], v[0])
		if k < 0 {
			return ""
		}
		s, _ := unescape(v[1 : 1+k])
		return s
	}
}

// revisionBody is the fast path through a revision's elements: it jumps
// from '<' to '<' (character data holds no literal '<' outside CDATA
// sections, so this also steps over text bodies) and handles the elements
// a stub or full dump repeats in every revision by their first bytes,
// without parsing tag names. At anything else — <id> and <timestamp> of
// the revision, </revision>, a tag with attributes it does not know, a
// CDATA section, comment or processing instruction ("<!", "<?", stepped
// over whole by the main loop),
// the end of the window — it returns with the scanner at that '<' and the
// main loop takes over, so malformed input is checked there as usual.
func (r *Reader) revisionBody() {
	s := r.s
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
		if i < 0 {
			return
		}
		s.pos += i
		b := s.buf[s.pos:s.end]
		if len(b) < 16 {
			return
		}
		switch b[1] {
		case '/':
			switch {
			case b[2] == 'c' && string(b[2:14]) == "contributor>":
				r.inContrib = false
				s.pos += 14
				continue
			case b[2] == 'r' || b[2] == 'p' || b[2] == 'u' || b[2] == 'm':
				return // </revision>, </page>, … : bookkeeping in endTag
			}
		case 'i':
			if string(b[1:4]) == "ip>" {
				r.revAnon = r.revAnon || r.inContrib
				s.pos += 4
				continue
			}
			if string(b[1:4]) != "id>" {
				return
			}
			if !r.inContrib {
				// The revision's own id, when the value and "</id>" are in
				// the window and well formed; else startTag reads it.
				v, n, ok := leafValue(b[4:], "id")
				if !ok {
					return
				}
				id, ok := parseInt(v)
				if !ok {
					return
				}
				r.revID = id
				s.pos += 4 + n
				continue
			}
		case 'c':
			if string(b[1:13]) == "contributor>" {
				r.inContrib = true
				s.pos += 13
				continue
			}
			if string(b[1:9]) != "comment>" {
				return
			}
		case 'm':
			if string(b[1:6]) == "minor" && nameEnd[b[6]] {
				r.revMin = true
			} else if string(b[1:7]) != "model>" {
				return
			}
		case 't':
			if string(b[1:11]) == "timestamp>" && !r.inContrib {
				v, n, ok := leafValue(b[11:], "timestamp")
				if !ok {
					return
				}
				t, err := parseTimestamp(v)
				if err != nil {
					return // startTag reports it
				}
				r.revTime, r.revHasTime = t, true
				s.pos += 11 + n
				continue
			}
			if string(b[1:5]) != "text" || !nameEnd[b[5]] || r.hashingText() {
				return
			}
		case 'p':
			if string(b[1:10]) != "parentid>" {
				return
			}
		case 'u':
			if string(b[1:10]) != "username>" || r.opt.IsBot != nil {
				return
			}
		case 's':
			if string(b[1:6]) != "sha1>" || r.opt.SHA1 {
				return
			}
		case 'f':
			if string(b[1:8]) != "format>" {
				return
			}
		case 'o':
			if string(b[1:8]) != "origin>" {
				return
			}
		default:
			return
		}
		s.pos++ // an element of no interest, or its closing tag
	}
}

// leafValue splits b, the bytes after a start tag, into the character data
// up to "</name>" and the length consumed including that closing tag; ok is
// false when the closing tag is not next (or not in b).
func leafValue(b []byte, name string) (v []byte, n int, ok bool) {
	i := bytes.IndexByte(b, '<')
	if i < 0 || len(b) < i+len(name)+3 || b[i+1] != '/' || string(b[i+2:i+2+len(name)]) != name || b[i+2+len(name)] != '>' {
		return nil, 0, false
	}
	return b[:i], i + len(name) + 3, true
}
