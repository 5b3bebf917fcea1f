package tables

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/stage"
)

// markerPrefix names the file that marks a results directory as written
// by revisit: ".revisit-" + kind ("analysis", "policies", "nhpp", …).
const markerPrefix = ".revisit-"

// WriteResults makes the results directory dir atomically: fill writes
// everything into a fresh temporary directory beside dir, a marker file
// (.revisit-KIND) is added, and the directory is renamed into place only
// when fill succeeded, so a failed or interrupted run leaves no
// half-written results where finished ones are expected (an earlier
// results directory stays as it was). An existing dir is replaced when it
// is empty or is results of the same kind that revisit wrote and nobody
// changed since (atomicdir.CheckReplaceable); anything else is refused, so
// a typo in -o, or a file of the user's inside earlier results, is never
// destroyed. Once ctx is done (Ctrl-C) nothing is put in place, however
// far fill got (stage.Write).
func WriteResults(ctx context.Context, dir, kind string, fill func(tmp string) error) error {
	return stage.Write(ctx, stage.Output{Dir: filepath.Clean(dir), Marker: markerPrefix + kind, What: kind}, func(tmp string) error {
		if err := fill(tmp); err != nil {
			return err
		}
		msg := fmt.Sprintf("written by revisit %s; this directory is replaced by the next %s results written here\n", kind, kind)
		if err := os.WriteFile(filepath.Join(tmp, markerPrefix+kind), []byte(msg), 0o644); err != nil {
			return fmt.Errorf("%s %s: %w", kind, dir, err)
		}
		return nil
	})
}

// WriteBundle writes b as a results directory of the given kind at dir
// (WriteResults: atomically, replacing only an earlier one of that kind;
// nothing once ctx is done).
func WriteBundle(ctx context.Context, b *Bundle, dir, kind string) error {
	return WriteResults(ctx, dir, kind, func(tmp string) error {
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("%s %s: %w", kind, dir, err)
		}
		return nil
	})
}

// CheckResults reports whether WriteResults could replace dir (see there),
// so that a command can refuse a wrong -o before its long computation.
func CheckResults(dir, kind string) error {
	return atomicdir.CheckReplaceable(filepath.Clean(dir), markerPrefix+kind, kind)
}

// CheckResultsOutput is CheckResults as a command checks its -o before any
// work (atomicdir.CheckOutput): a usage.Refused naming the command.
func CheckResultsOutput(command, dir, kind string) error {
	return atomicdir.CheckOutput(command, dir, markerPrefix+kind, kind)
}

// ResultsMarker is the name of the marker file WriteResults puts in a
// results directory of the given kind (the report uses the same
// convention: ".revisit-report").
func ResultsMarker(kind string) string { return markerPrefix + kind }
