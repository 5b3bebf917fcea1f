package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/pipeline"

	"github.com/revisit-dev/revisit/internal/usage"
)

// Ctrl-C or SIGTERM (both cancel the context execute gives the command)
// while run is in the NHPP, staleness or policies stage stops it with an
// error (exit 1, not 0) and leaves nothing of that stage or the later ones:
// no nhpp/, staleness/, policies/ or report/, no temporary directory. The
// context is cancelled exactly as the stage starts (globals.onStage), so
// the stage itself must notice.
func TestRunCancelledInLateStages(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("id,time\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for p := 0; p < 25; p++ { // ≥ 20 pages: the policies stage runs
		at := t0
		for i := 0; i < 40; i++ { // ≥ 20 updates: NHPP and staleness use the page
			at = at.Add(time.Duration(1+(i*7+p*13)%11) * time.Hour)
			fmt.Fprintf(&sb, "page%d,%s\n", p, at.Format(time.RFC3339))
		}
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for stage, name := range map[int]string{4: "nhpp", 5: "staleness", 6: "policies"} {
		out := filepath.Join(dir, "out-"+name)
		ctx, cancel := context.WithCancel(context.Background())
		g := &globals{quiet: true, onStage: func(n int) {
			if n == stage {
				cancel()
			}
		}}
		cmd := newRunCmd(g)
		cmd.SetArgs([]string{in, "--id", "id", "--time", "time", "-o", out, "--top", "3", "--reps", "19", "--x-max", "10"})
		cmd.SetContext(ctx)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		errc := make(chan error, 1)
		go func() { errc <- cmd.Execute() }()
		var err error
		select {
		case err = <-errc:
		case <-time.After(60 * time.Second):
			t.Fatalf("cancelled in %s: run did not return within 60 s", name)
		}
		cancel()
		ents0, _ := os.ReadDir(out)
		t.Logf("cancelled in %s: %v; left %v", name, err, ents0)
		var ue *usage.Error
		if !errors.Is(err, context.Canceled) || errors.As(err, &ue) {
			t.Errorf("cancelled in %s: %v, want context.Canceled (exit 1)", name, err)
		}
		later := []string{"nhpp", "staleness", "policies", "report"}
		for _, n := range later[stage-4:] { // the cancelled stage and those after it
			if _, err := os.Stat(filepath.Join(out, n)); !os.IsNotExist(err) {
				t.Errorf("cancelled in %s: %s/ exists (%v)", name, n, err)
			}
		}
		for _, e := range ents0 {
			if strings.HasPrefix(e.Name(), ".") && e.Name() != pipeline.RunMarker { // temporary directories, lock files
				t.Errorf("cancelled in %s: temporary %s left", name, e.Name())
			}
		}
	}
}
