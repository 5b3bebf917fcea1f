package logs

// CDXJ lines (SURT timestamp {json}) and the Common Crawl index server's
// JSON lines (cc-json), read by the same code.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// sniffCDXJ: a third field that opens a JSON object (SURT timestamp
// {json}).
func sniffCDXJ(h head) sniffLevel {
	if len(h.fs) >= 3 && strings.HasPrefix(h.fs[2], "{") {
		return sniffLikely
	}
	return sniffNo
}

// sniffCCJSON: a line that opens a JSON object.
func sniffCCJSON(h head) sniffLevel {
	if strings.HasPrefix(h.s, "{") {
		return sniffSure
	}
	return sniffNo
}

// cdxjJSON is the JSON object of a written CDXJ line; a cc-json line
// puts the urlkey and timestamp before its fields (encoding/json writes an
// embedded struct's fields in its place).
type cdxjJSON struct {
	URL    string `json:"url"`
	Mime   string `json:"mime"`
	Status string `json:"status"`
	Digest string `json:"digest"`
	Length string `json:"length"`
}

func cdxjOf(c outCapture) cdxjJSON {
	return cdxjJSON{URL: c.url, Mime: "text/html", Status: c.status, Digest: c.digest, Length: "1000"}
}

// writeCDXJ writes one capture as a CDXJ line.
func writeCDXJ(bw *bufio.Writer, c outCapture) {
	b, _ := json.Marshal(cdxjOf(c))
	fmt.Fprintf(bw, "%s %s %s\n", c.id, cdxTime(c.t), b)
}

// writeCCJSON writes one capture as the index server's JSON line.
func writeCCJSON(bw *bufio.Writer, c outCapture) {
	b, _ := json.Marshal(struct {
		URLKey    string `json:"urlkey"`
		Timestamp string `json:"timestamp"`
		cdxjJSON
	}{c.id, cdxTime(c.t), cdxjOf(c)})
	bw.Write(b)
	bw.WriteString("\n")
}

// cdxjLine reads one CDXJ line (SURT timestamp {json}) or one line of
// the Common Crawl index server's output=json (urlkey and timestamp
// inside the JSON).
func (r *reader) cdxjLine(line []byte, st *lineState) (string, error) {
	s := strings.TrimSpace(string(line))
	var key, ts, js string
	if strings.HasPrefix(s, "{") { // the index server's output=json: urlkey and timestamp inside
		js = s
	} else {
		var ok1, ok2 bool
		key, s, ok1 = strings.Cut(s, " ")
		ts, js, ok2 = strings.Cut(strings.TrimLeft(s, " "), " ")
		if !ok1 || !ok2 {
			return "fields", errors.New("want SURT timestamp {json}")
		}
	}
	var v struct {
		URLKey    string          `json:"urlkey"`
		Timestamp json.RawMessage `json:"timestamp"`
		URL       string          `json:"url"`
		Mime      string          `json:"mime"`
		Digest    string          `json:"digest"`
		Status    json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		return "json", fmt.Errorf("%s: %v", st.format, err)
	}
	if key == "" {
		key, ts = v.URLKey, strings.Trim(string(v.Timestamp), `"`)
		if key == "" || ts == "" {
			return "fields", errors.New("JSON capture without urlkey or timestamp")
		}
	}
	stat := strings.Trim(string(v.Status), `"`)
	return r.capture(key, ts, stat, v.Digest, v.Mime, v.URL)
}
