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
	sc.SetMax(1 << 20)
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
// (len(id) + len(value) + 120)/24 captures.
func (r *reader) loadCompanion(path, kind string) error {
	dr, err := decompress.Open(path)
	if err != nil {
		return fmt.Errorf("%s file %s: %w", kind, path, err)
	}
	defer dr.Close()
	r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: path, Size: dr.Size(), Format: kind})
	r.in = &r.stats.Inputs[len(r.stats.Inputs)-1]
	r.name = path
	if kind == Importance && r.imp == nil {
		r.imp = map[string]float64{}
	}
	if kind == URLs && r.urls == nil {
		r.urls = map[string]string{}
	}
	for {
		if _, err := dr.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("%s file %s: %w", kind, path, err)
		}
		sc := linescan.New(dr, 1<<20)
		sc.SetMax(r.opt.MaxLineBytes)
		for {
			line, err := sc.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if _, ok := linescan.IsTooLong(err); ok {
					if e := r.fail(sc.Line(), "line_too_long", err); e != nil {
						return e
					}
					continue
				}
				return fmt.Errorf("%s file %s: %w", kind, path, err)
			}
			s := strings.TrimRight(string(line), "\r")
			if strings.TrimSpace(s) == "" {
				continue
			}
			fs := strings.Split(s, "\t")
			if sc.Line() == 1 && isHeader(kind, fs) {
				continue
			}
			id, val, num, perr := companionLine(kind, fs)
			if perr != nil {
				if e := r.fail(sc.Line(), kind, perr); e != nil {
					return e
				}
				continue
			}
			_, dupI := r.imp[id]
			_, dupU := r.urls[id]
			if kind == Importance && dupI || kind == URLs && dupU {
				if e := r.fail(sc.Line(), "duplicate", fmt.Errorf("URL_ID %q given twice", id)); e != nil {
					return e
				}
				continue
			}
			if kind == Importance {
				r.imp[strings.Clone(id)] = num
			} else {
				r.urls[strings.Clone(id)] = strings.Clone(val)
			}
			r.in.Records++
			r.held += int64(len(id)+len(val)+urlBytes+23) / 24
			if r.held > r.opt.MaxObservations {
				return fmt.Errorf("%s file %s line %d: more than %d captures to hold in memory (each URL_ID counts as (len(id) + len(value) + 120)/24): raise --max-observations, at about 60 bytes of memory per capture", kind, path, sc.Line(), r.opt.MaxObservations)
			}
		}
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

// companion sets o's URL and importance from the companion files.
func (r *reader) companion(o *Observed) {
	if v, ok := r.imp[o.ID]; ok {
		o.Importance, o.HasImportance = v, true
	}
	if u, ok := r.urls[o.ID]; ok {
		o.Source, o.ID = o.ID, u
	}
}
