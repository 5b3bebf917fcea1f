package replay

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// ObservationsDir is the folder of a replay output that holds the visit
// logs of --write-observations.
const ObservationsDir = "observations"

// ObservationFiles is replay.json's record of the visit logs written.
type ObservationFiles struct {
	Format string            `json:"format"`
	Files  map[string]string `json:"files"` // sampler → path relative to the output directory
}

// obsWriters are one visit-log writer per sampler (none when format is "").
type obsWriters struct {
	format string
	files  []*os.File
	ws     []*logs.Writer
	names  map[string]string
}

// ObservationFile is the file name of a sampler's visit log.
func ObservationFile(sampler, format string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, sampler)
	return safe + logs.Ext(format)
}

func newObservationWriters(dir, format string, smp []estimator.Sampler) (*obsWriters, error) {
	ow := &obsWriters{format: format, names: map[string]string{}}
	if format == "" {
		return ow, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, ObservationsDir), 0o755); err != nil {
		return nil, err
	}
	for _, s := range smp {
		rel := filepath.Join(ObservationsDir, ObservationFile(s.Spec, format))
		f, err := os.Create(filepath.Join(dir, rel))
		if err != nil {
			ow.close()
			return nil, err
		}
		ow.files = append(ow.files, f)
		w, err := logs.NewWriter(f, format)
		if err != nil {
			ow.close()
			return nil, err
		}
		ow.ws = append(ow.ws, w)
		ow.names[s.Spec] = rel
	}
	return ow, nil
}

func (ow *obsWriters) write(si int, o *series.Observed) error { return ow.ws[si].Write(o) }

// finish ends every log and reports the files (nil when none).
func (ow *obsWriters) finish() (*ObservationFiles, error) {
	if ow.format == "" {
		return nil, nil
	}
	for i, w := range ow.ws {
		if err := w.Close(); err != nil {
			return nil, err
		}
		if err := ow.files[i].Close(); err != nil {
			return nil, err
		}
		ow.files[i] = nil
	}
	return &ObservationFiles{Format: ow.format, Files: ow.names}, nil
}

// close closes the files still open (after an error).
func (ow *obsWriters) close() {
	for _, f := range ow.files {
		if f != nil {
			f.Close()
		}
	}
}
