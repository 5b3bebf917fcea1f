package ingest

import (
	"bytes"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/mwhistory"
)

// Content kinds the driver dispatches on.
const (
	KindMediaWiki = "mediawiki"
	KindGeneric   = "generic"
	// KindMWHistory is Wikimedia's mediawiki_history TSV dump (detected,
	// or forced with --format mediawiki-history).
	KindMWHistory = "mediawiki-history"
)

// IsMediaWiki reports whether the head of a decompressed stream is a
// MediaWiki XML export: after an optional byte-order mark, XML declaration,
// comments and white space, the root element is <mediawiki.
func IsMediaWiki(head []byte) bool {
	t := bytes.TrimPrefix(head, []byte("\ufeff"))
	for {
		t = bytes.TrimLeft(t, " \t\r\n")
		switch {
		case bytes.HasPrefix(t, []byte("<?")):
			i := bytes.Index(t, []byte("?>"))
			if i < 0 {
				return false
			}
			t = t[i+2:]
		case bytes.HasPrefix(t, []byte("<!--")):
			i := bytes.Index(t, []byte("-->"))
			if i < 0 {
				return false
			}
			t = t[i+3:]
		default:
			return bytes.HasPrefix(t, []byte("<mediawiki")) && len(t) > len("<mediawiki") &&
				(t[10] == ' ' || t[10] == '>' || t[10] == '\n' || t[10] == '\t' || t[10] == '\r')
		}
	}
}

// sniff decides which reader gets a stream: MediaWiki XML first (it is
// unambiguous), a format forced with --format, a mediawiki_history dump
// (70 or 76 tab-separated columns of the right shape, see
// mwhistory.Sniff), then Yelp JSON lines (see yelp.go), then the generic
// reader when the options say where ids and times are (its format told
// after the input's --skip-lines lines).
func (d *driver) sniff(head []byte) (kind string, ok bool) {
	if IsMediaWiki(head) {
		return KindMediaWiki, true
	}
	if d.opt.Generic.Format == KindMWHistory {
		return KindMWHistory, true
	}
	if d.opt.genericForced() {
		return KindGeneric, true
	}
	if mwhistory.Sniff(head) {
		return KindMWHistory, true
	}
	if k, ok := sniffYelp(head); ok {
		return k, true
	}
	if d.opt.genericGiven() && generic.Sniff(skipHead(head, d.skipLines)) {
		return KindGeneric, true
	}
	return "", false
}

// firstLine is the first line of head (without the newline).
func firstLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		return bytes.TrimRight(head[:i], "\r")
	}
	return head
}
