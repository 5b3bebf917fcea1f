package logs

// The Wayback CDX server's JSON output (cdx-json): rows of strings, a
// header row first, one row per line or the whole array on one line.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
)

// sniffCDXJSON: a line that opens an array.
func sniffCDXJSON(h head) sniffLevel {
	if strings.HasPrefix(h.s, "[") {
		return sniffSure
	}
	return sniffNo
}

// openCDXJSON writes the header row, closeCDXJSON the closing bracket.
func openCDXJSON(w *Writer) {
	w.bw.WriteString(`[["urlkey","timestamp","original","mimetype","statuscode","digest","length"]` + "\n")
}

func closeCDXJSON(w *Writer) { w.bw.WriteString("]\n") }

// writeCDXJSON writes one capture as a row after the header.
func writeCDXJSON(bw *bufio.Writer, c outCapture) {
	b, _ := json.Marshal([]string{c.id, cdxTime(c.t), c.url, "text/html", c.status, c.digest, "1000"})
	bw.WriteString(",")
	bw.Write(b)
	bw.WriteString("\n")
}

// cdxJSONLine reads one line of the CDX server's JSON output: a row, the
// closing bracket, or the whole array on one line.
func (r *reader) cdxJSONLine(line []byte, st *lineState) (string, error) {
	s := strings.TrimSpace(string(line))
	if s == "]" {
		return "", nil
	}
	if strings.HasPrefix(s, "[[") && strings.HasSuffix(s, "]]") && strings.Count(s, "],") > 0 {
		var rows [][]string // the whole array on one line
		if err := json.Unmarshal([]byte(s), &rows); err != nil {
			return "json", fmt.Errorf("CDX JSON: %v", err)
		}
		for _, row := range rows {
			reason, err := r.cdxRow(row, st)
			if r.fnErr != nil {
				return "", nil
			}
			if err != nil {
				if !r.opt.SkipBad || reason == "header" {
					return reason, err
				}
				r.bad(reason) // one bad row: count it and read the rest of the line
			}
		}
		return "", nil
	}
	s = strings.TrimPrefix(s, ",")
	if strings.HasPrefix(s, "[[") {
		s = s[1:]
	}
	s = strings.TrimSuffix(s, ",")
	if strings.HasSuffix(s, "]]") {
		s = s[:len(s)-1]
	}
	var row []string
	if err := json.Unmarshal([]byte(s), &row); err != nil {
		return "json", fmt.Errorf("CDX JSON row: %v", err)
	}
	return r.cdxRow(row, st)
}

// cdxRow reads one row of the CDX server's JSON output: the header row
// (column names), a capture, or the pagination footer (the row [], then
// the resume key alone in a row). A header row again (concatenated pages)
// is passed over; a row of another length than the header is bad.
func (r *reader) cdxRow(row []string, st *lineState) (string, error) {
	blank := st.blank
	st.blank = len(row) == 0
	switch {
	case len(row) == 0:
		return "", nil
	case len(row) == 1 && blank:
		r.in.ResumeKeys++
		return "", nil
	}
	if st.cols == nil {
		st.cols = map[string]int{}
		for i, c := range row {
			st.cols[strings.ToLower(c)] = i
		}
		st.nf = len(row)
		for _, c := range []string{"urlkey", "timestamp", "digest"} {
			if _, ok := st.cols[c]; !ok {
				return "header", fmt.Errorf("CDX JSON header %q has no %s column", row, c)
			}
		}
		return "", nil
	}
	if len(row) != st.nf {
		return "fields", fmt.Errorf("%d fields, the header has %d", len(row), st.nf)
	}
	get := func(c string) string {
		if i, ok := st.cols[c]; ok {
			return row[i]
		}
		return ""
	}
	if strings.EqualFold(get("urlkey"), "urlkey") && strings.EqualFold(get("timestamp"), "timestamp") {
		return "", nil // the header of a page concatenated after the first
	}
	return r.capture(get("urlkey"), get("timestamp"), get("statuscode"), get("digest"), get("mimetype"), get("original"))
}
