package logs

// Generic visit logs (log-changed, log-digest, log-last-modified): one
// line id, time, value under a header naming the columns.

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

// logTime reads a generic log's time: epoch seconds, RFC 3339 /
// YYYY-MM-DD[ HH:MM:SS], or an HTTP date (Last-Modified headers).
func logTime(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	// units.ParseISO, not generic.ParseISO: its wrapped error would be
	// built and dropped on every line with an HTTP date
	if sec, _, _, err := units.ParseISO([]byte(s)); err == nil {
		return sec, nil
	}
	if t, err := http.ParseTime(s); err == nil {
		return t.Unix(), nil
	}
	return 0, fmt.Errorf("time %q: want epoch seconds, RFC 3339 or an HTTP date", s)
}

func (r *reader) logLine(line []byte, st *lineState) (string, error) {
	fs := splitFields(strings.TrimRight(string(line), "\r"), st.comma)
	need := max(st.cols["id"], st.cols["time"], st.cols["value"])
	if len(fs) <= need {
		return "fields", fmt.Errorf("%d fields, want at least %d", len(fs), need+1)
	}
	id := strings.TrimSpace(fs[st.cols["id"]])
	if id == "" {
		return "fields", errors.New("empty id")
	}
	t, err := logTime(fs[st.cols["time"]])
	if err != nil {
		return "timestamp", err
	}
	val := strings.TrimSpace(fs[st.cols["value"]])
	kind := map[string]uint8{LogChanged: kindChanged, LogDigest: kindDigest, LogLastMod: kindLastMod}[st.format]
	rc := rec{t: t, kind: kind}
	switch {
	case val == "" || val == "-":
		rc.flags = fAbsent
	case kind == kindDigest:
		rc.v = fnv64(val)
	case kind == kindChanged:
		switch strings.ToLower(val) {
		case "1", "true", "yes":
			rc.v = 1
		case "0", "false", "no":
		default:
			return "fields", fmt.Errorf("changed %q is not 0, 1, true or false", val)
		}
	default:
		lm, err := logTime(val)
		if err != nil {
			return "last_modified", fmt.Errorf("last_modified: %v", err)
		}
		if lm > t {
			return "last_modified", fmt.Errorf("last_modified %s is after the visit at %s", val, fs[st.cols["time"]])
		}
		rc.v = uint64(lm)
	}
	return r.add(id, rc)
}
