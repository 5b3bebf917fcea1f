package visits

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/internal/decompress"
)

// Companion files of the Bing change trace (Kolobov et al. 2019, the
// LambdaCrawl data set): they key other files by the trace's URL_ID.
const (
	// Importance is urlid_imp.txt: "URL_ID<TAB>importance_score".
	Importance = "importance"
	// URLs is url_urlid_hostid.txt: "URL<TAB>URL_ID<TAB>Host_ID".
	URLs = "urls"
)

// sniff tells a companion file from its first non-empty line: two tab
// separated fields, an integer id and a number, is an importance file;
// three, of which the second and third are integers and the first is not,
// a URL file. Anything else is "" (an observation log).
func sniff(line string) string {
	fs := strings.Split(strings.TrimRight(line, "\r"), "\t")
	switch {
	case len(fs) == 2 && isDigits(fs[0]):
		if _, err := strconv.ParseFloat(strings.TrimSpace(fs[1]), 64); err == nil {
			return Importance
		}
	case len(fs) == 3 && !isDigits(fs[0]) && isDigits(fs[1]) && isDigits(strings.TrimSpace(fs[2])):
		return URLs
	}
	return ""
}

// sniffsCompanions reports whether the inputs given with format are
// looked at for companion files (sniff): when the format is detected, and
// with --format trace, whose companions they are (a trace line, an
// integer id and two more fields of which the last is a list, is neither
// kind).
func sniffsCompanions(format string) bool {
	return format == "" || format == "auto" || format == Trace
}

// firstLine is the first non-empty line of path (of its first member).
// An uncompressed file is read directly, a few KiB of it (a shard of byte
// ranges reads only its part; the decompressor's buffer would read 1 MiB).
func firstLine(path string) (string, error) {
	if f, err := os.Open(path); err == nil {
		defer f.Close()
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		fi, err := f.Stat()
		if err == nil && fi.Mode().IsRegular() && decompress.Detect(head[:n], path) == decompress.Plain && !decompress.IsTar(head[:n]) {
			return firstLineOf(io.NewSectionReader(f, 0, fi.Size()), 4096)
		}
	}
	dr, err := decompress.Open(path)
	if err != nil {
		return "", err
	}
	defer dr.Close()
	if _, err := dr.Next(); err != nil {
		if err == io.EOF {
			return "", nil
		}
		return "", err
	}
	return firstLineOf(dr, 1<<16)
}

// firstLineOf is the first non-empty line of src, read through a buffer of
// size bytes.
func firstLineOf(src io.Reader, size int) (string, error) {
	sc := linescan.New(src, size)
	sc.SetMaxFrom(1<<20, "")
	for {
		line, err := sc.Next()
		if err != nil {
			if err == io.EOF {
				return "", nil
			}
			var ce *decompress.CorruptError
			if errors.As(err, &ce) {
				return "", nil // the reader reports it
			}
			if _, ok := linescan.IsTooLong(err); ok {
				return "", nil
			}
			return "", err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return string(line), nil
		}
	}
}

// loadCompanion reads an importance or URL file into r's maps. Each entry
// is held until the end and counts against MaxObservations as a URL does:
// (len(id) + len(value) + 120)/24 captures. Counted: the file is an input
// of its own (Stats.Inputs), its bad lines counted or refused; quiet
// (a fallback from the streaming join, companionjoin.go): the file was
// counted and checked already, its bad lines are passed over.
func (r *reader) loadCompanion(path, kind string, counted bool) error {
	cl, err := openCompLines(path, kind, r.opt.MaxLineBytes)
	if err != nil {
		return err
	}
	defer cl.close()
	if counted {
		r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: path, Size: cl.dr.Size(), Format: kind})
		r.in = &r.stats.Inputs[len(r.stats.Inputs)-1]
		r.name = path
	}
	if kind == Importance && r.imp == nil {
		r.imp = map[string]float64{}
	}
	if kind == URLs && r.urls == nil {
		r.urls = map[string]string{}
	}
	for {
		e, reason, perr, err := cl.next()
		if err == io.EOF {
			if counted {
				return r.printWhole(path, cl.dr)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if reason != "" {
			if !counted {
				continue
			}
			if e := r.fail(e.line, reason, perr); e != nil {
				return e
			}
			continue
		}
		_, dupI := r.imp[e.id]
		_, dupU := r.urls[e.id]
		if kind == Importance && dupI || kind == URLs && dupU {
			if !counted {
				continue
			}
			if e := r.fail(e.line, "duplicate", fmt.Errorf("URL_ID %q given twice", e.id)); e != nil {
				return e
			}
			continue
		}
		if kind == Importance {
			r.imp[strings.Clone(e.id)] = e.num
		} else {
			r.urls[strings.Clone(e.id)] = strings.Clone(e.val)
		}
		if counted {
			r.in.Records++
		}
		r.held += int64(len(e.id)+len(e.val)+urlBytes+23) / 24
		if r.held > r.opt.MaxObservations {
			return fmt.Errorf("%s file %s line %d: more than %d captures to hold in memory (each URL_ID counts as (len(id) + len(value) + 120)/24): raise --max-observations, at about 60 bytes of memory per capture", kind, path, e.line, r.opt.MaxObservations)
		}
	}
}

// compEntry is one entry of a companion file: its URL_ID, and its URL
// (URLs) or importance (Importance); line is its line in its file (or
// archive member), seq its place in the file.
type compEntry struct {
	id, val string
	num     float64
	line    int64
	seq     int64
}

// compLines reads a companion file's lines in file order.
type compLines struct {
	path, kind string
	dr         *decompress.Reader
	sc         *linescan.Scanner // nil: between members
	max        int
	seq        int64
}

func openCompLines(path, kind string, max int) (*compLines, error) {
	dr, err := decompress.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s file %s: %w", kind, path, err)
	}
	return &compLines{path: path, kind: kind, dr: dr, max: max}, nil
}

func (c *compLines) close() { c.dr.Close() }

// next is the next entry; or a bad line (reason and perr, e.line set);
// err is io.EOF at the end, or what stops the reading (I/O, a corrupt
// stream). Empty lines and a header line are passed over.
func (c *compLines) next() (e compEntry, reason string, perr error, err error) {
	for {
		if c.sc == nil {
			if _, err := c.dr.Next(); err != nil {
				if err == io.EOF {
					return e, "", nil, io.EOF
				}
				return e, "", nil, fmt.Errorf("%s file %s: %w", c.kind, c.path, err)
			}
			c.sc = linescan.New(c.dr, 1<<20)
			c.sc.SetMaxFrom(c.max, "")
		}
		line, err := c.sc.Next()
		if err == io.EOF {
			c.sc = nil
			continue
		}
		if err != nil {
			if _, ok := linescan.IsTooLong(err); ok {
				c.seq++
				return compEntry{line: c.sc.Line(), seq: c.seq}, "line_too_long", err, nil
			}
			return e, "", nil, fmt.Errorf("%s file %s: %w", c.kind, c.path, err)
		}
		c.seq++
		s := strings.TrimRight(string(line), "\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		fs := strings.Split(s, "\t")
		if c.sc.Line() == 1 && isHeader(c.kind, fs) {
			continue
		}
		id, val, num, perr := companionLine(c.kind, fs)
		e = compEntry{id: id, val: val, num: num, line: c.sc.Line(), seq: c.seq}
		if perr != nil {
			return e, c.kind, perr, nil
		}
		return e, "", nil, nil
	}
}

// isHeader: the first line of a companion file names its columns
// ("URL_ID<TAB>Importance_score", "URL<TAB>URL_ID<TAB>Host_ID").
func isHeader(kind string, fs []string) bool {
	k := 0
	if kind == URLs {
		k = 1
	}
	return len(fs) > k && !isDigits(strings.TrimSpace(fs[k]))
}

// companionLine is one entry: the URL_ID and the URL or the importance.
func companionLine(kind string, fs []string) (id, url string, imp float64, err error) {
	switch kind {
	case Importance:
		if len(fs) != 2 {
			return "", "", 0, fmt.Errorf("%d fields, want URL_ID<TAB>importance", len(fs))
		}
		id = strings.TrimSpace(fs[0])
		v, perr := strconv.ParseFloat(strings.TrimSpace(fs[1]), 64)
		if perr != nil || v != v {
			return "", "", 0, fmt.Errorf("importance %.40q is not a number", fs[1])
		}
		imp = v
	default:
		if len(fs) != 3 {
			return "", "", 0, fmt.Errorf("%d fields, want URL<TAB>URL_ID<TAB>Host_ID", len(fs))
		}
		id, url = strings.TrimSpace(fs[1]), strings.TrimSpace(fs[0])
		if url == "" {
			return "", "", 0, errors.New("empty URL")
		}
	}
	if id == "" {
		return "", "", 0, errors.New("empty URL_ID")
	}
	return id, url, imp, nil
}

// companion sets o's URL and importance from the companion files: by
// the streaming join while the ids come in increasing order, from the maps
// otherwise (companionjoin.go).
func (r *reader) companion(o *Observed) error {
	id := o.ID
	if len(r.streams) > 0 {
		if r.looked && !beforeS(r.lastLook, id) {
			if err := r.compFallback(id); err != nil {
				return err
			}
		} else {
			r.lastLook, r.looked = id, true
			for _, s := range r.streams {
				e, ok, err := s.lookup(id)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				if s.kind == Importance {
					o.Importance, o.HasImportance = e.num, true
				} else {
					o.Source, o.ID = id, e.val
				}
			}
		}
	}
	if v, ok := r.imp[id]; ok {
		o.Importance, o.HasImportance = v, true
	}
	if u, ok := r.urls[id]; ok {
		o.Source, o.ID = id, u
	}
	return nil
}
