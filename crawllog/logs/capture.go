package logs

// A CDX-family capture (from any of cdx, cdx-json, cdxj, cc-json): its
// timestamp, its HTTP status, revisit records and empty payloads.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// cdxTimestamp parses a Wayback timestamp: 4 to 14 digits, the missing
// ones taken as the earliest (2020 → 2020-01-01 00:00:00 UTC).
func cdxTimestamp(s string) (int64, error) {
	if len(s) < 4 || len(s) > 14 || !isDigits(s) {
		return 0, fmt.Errorf("timestamp %q: want 4 to 14 digits YYYYMMDDhhmmss", s)
	}
	full := s + "00000101000000"[len(s):]
	t, err := time.Parse("20060102150405", full)
	if err != nil {
		return 0, fmt.Errorf("timestamp %q: %v", s, err)
	}
	return t.Unix(), nil
}

// status classifies a capture's HTTP status: content, absent (404, 410),
// or a skip reason.
func status(s string) (absent bool, skip string) {
	s = strings.TrimSpace(s)
	switch {
	case s == "-" || s == "" || (len(s) == 3 && s[0] == '2'):
		return false, "" // "-": a revisit record (content unchanged)
	case s == "404" || s == "410":
		return true, ""
	case len(s) == 3 && s[0] >= '3' && s[0] <= '5':
		return false, "status_" + s[:1] + "xx"
	}
	return false, "status_other"
}

// emptyDigest is the base-32 SHA-1 of an empty payload: the digest of a
// revisit of a redirect (or of any empty response).
const emptyDigest = "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"

// revisitSkips are the skip reasons of held captures that are no visit
// but that a revisit record may repeat (rec.why).
var revisitSkips = []string{"", "status_3xx", "status_4xx", "status_5xx", "status_other"}

// capture records one CDX-family capture. A revisit record (MIME type
// warc/revisit, or status "-") is held with its digest and resolved when
// the URL is built; captures with another status than content or absent
// are counted and held too so that a revisit of them is known for what it
// is (when they have a digest) and their key and original URL are
// counted (a key of redirects only is a URL without content, and one that
// may group several original URLs): a redirect, or a revisit of the empty
// payload, is held without its digest (fNoDigest), which no revisit
// resolves to.
func (r *reader) capture(key, ts, stat, digest, mime, original string) (string, error) {
	if r.opt.Key == KeyURL {
		if original == "" || original == "-" {
			return "fields", errors.New("--key url: a capture without its original URL")
		}
		key = original
	}
	r.original = original
	if key == "" {
		return "fields", errors.New("empty urlkey")
	}
	t, err := cdxTimestamp(ts)
	if err != nil {
		return "timestamp", err
	}
	digest = strings.TrimPrefix(digest, "sha1:")
	hasDigest := digest != "" && digest != "-"
	if strings.EqualFold(mime, "warc/revisit") || strings.TrimSpace(stat) == "-" {
		if !hasDigest {
			return "digest", errors.New("a revisit record without a digest")
		}
		if digest == emptyDigest { // a revisit of an empty payload: a redirect's
			reason, err := r.add(key, rec{t: t, kind: kindDigest, flags: fSkip | fNoDigest})
			if err == nil && reason == "" {
				r.stats.Skipped["revisit_empty_payload"]++
			}
			return reason, err
		}
		return r.add(key, rec{t: t, kind: kindDigest, flags: fRevisit, v: fnv64(digest)})
	}
	absent, skip := status(stat)
	if skip == "" && !absent && !hasDigest {
		return "digest", errors.New("a capture with content but no digest")
	}
	if skip != "" {
		rc := rec{t: t, kind: kindDigest, flags: fSkip, why: uint8(slices.Index(revisitSkips, skip)), v: fnv64(digest)}
		if !hasDigest || digest == emptyDigest {
			rc.flags, rc.v = fSkip|fNoDigest, 0
		}
		reason, err := r.add(key, rc)
		if err == nil && reason == "" {
			r.stats.Skipped[skip]++
		}
		return reason, err
	}
	rc := rec{t: t, kind: kindDigest}
	if absent {
		rc.flags = fAbsent
	}
	if hasDigest { // an absent page's too: a revisit may repeat it
		rc.v = fnv64(digest)
	}
	return r.add(key, rc)
}
