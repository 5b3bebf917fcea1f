package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/supervise"
	"github.com/revisit-dev/revisit/pipeline"
	"github.com/revisit-dev/revisit/replay"
)

// readmeExitCodes reads the exit-code table of README.md (the rows
// "| CODE | MEANING |" after the header "| exit code | meaning |").
func readmeExitCodes(t *testing.T) map[int]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile(`^\|\s*(\d+)\s*\|\s*(.*?)\s*\|\s*$`)
	codes := map[int]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "| exit code | meaning |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "|"):
			m := row.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("README.md exit-code table: bad row %q", line)
			}
			n, _ := strconv.Atoi(m[1])
			codes[n] = m[2]
		case in:
			return codes
		}
	}
	if len(codes) == 0 {
		t.Fatal("README.md has no exit-code table (header \"| exit code | meaning |\")")
	}
	return codes
}

// readmeCode is the code of the README table's one row that mentions
// what.
func readmeCode(t *testing.T, what string) int {
	t.Helper()
	found := -1
	for code, meaning := range readmeExitCodes(t) {
		if strings.Contains(meaning, what) {
			if found >= 0 {
				t.Fatalf("README.md exit-code table: %q in the rows of %d and %d", what, found, code)
			}
			found = code
		}
	}
	if found < 0 {
		t.Fatalf("README.md exit-code table: no row mentions %q", what)
	}
	return found
}

// The README's table lists exactly the codes main.go uses, each row with
// the meaning the code has there.
func TestReadmeExitCodeTable(t *testing.T) {
	codes := readmeExitCodes(t)
	want := map[int]string{
		exitOK: "success", exitBadInput: "bad input", exitUsage: "refused output", exitInternal: "cannot run",
		exitSIGHUP: "SIGHUP", exitSIGINT: "SIGINT", exitSIGTERM: "SIGTERM", exitSIGKILL: "SIGKILL", exitSIGQUIT: "SIGQUIT",
		exitStdout: "standard output could not be written",
	}
	var got, exp []int
	for c := range codes {
		got = append(got, c)
	}
	for c, what := range want {
		exp = append(exp, c)
		if !strings.Contains(codes[c], what) {
			t.Errorf("README.md: exit code %d is %q, want it to mention %q", c, codes[c], what)
		}
	}
	sort.Ints(got)
	sort.Ints(exp)
	if fmt.Sprint(got) != fmt.Sprint(exp) {
		t.Errorf("README.md lists exit codes %v, main.go uses %v", got, exp)
	}
	if exitSIGHUP != 129 || exitSIGINT != 130 || exitSIGTERM != 143 || exitSIGKILL != 137 || exitStdout != 141 || exitSIGQUIT != 131 {
		t.Errorf("signal exit codes %d %d %d %d %d %d, want 129 130 143 137 141 131", exitSIGHUP, exitSIGINT, exitSIGTERM, exitSIGKILL, exitStdout, exitSIGQUIT)
	}
}

// refusalFixtures writes, in a new directory, inputs every command can
// read: a generic log (log.csv), its dataset (ds), a replay (rp) and
// replay shards (rs0, rs1), an analysis (an) and analysis shards (as0,
// as1), a CDX of captures (caps.cdx) and estimate shards (es0, es1). p
// gives a path in that directory, log the arguments that read log.csv.
func refusalFixtures(t *testing.T) (p func(string) string, log []string) {
	t.Helper()
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("id,time\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; k < 25; k++ {
		at := t0
		for i := 0; i < 40; i++ {
			at = at.Add(time.Duration(1+(i*7+k*13)%11) * time.Hour)
			fmt.Fprintf(&sb, "page%d,%s\n", k, at.Format(time.RFC3339))
		}
	}
	os.WriteFile(filepath.Join(dir, "log.csv"), []byte(sb.String()), 0o644)
	var cdx strings.Builder
	for _, u := range []string{"a", "b", "c"} {
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&cdx, "com,%s)/ 202001%02d000000 http://%s/ text/html 200 D%d 1\n", u, i+1, u, i/2)
		}
	}
	os.WriteFile(filepath.Join(dir, "caps.cdx"), []byte(cdx.String()), 0o644)
	p = func(s string) string { return filepath.Join(dir, s) }
	for _, args := range [][]string{
		{"ingest", p("log.csv"), "--id", "id", "--time", "time", "-o", p("ds")},
		{"replay", p("ds"), "--top", "3", "-o", p("rp")},
		{"replay", p("ds"), "--top", "3", "--shard", "0/2", "-o", p("rs0")},
		{"replay", p("ds"), "--top", "3", "--shard", "1/2", "-o", p("rs1")},
		{"analyze", p("ds"), p("rp"), "--reps", "19", "-o", p("an")},
		{"analyze", p("ds"), "--reps", "19", "--shard", "0/2", "-o", p("as0")},
		{"analyze", p("ds"), "--reps", "19", "--shard", "1/2", "-o", p("as1")},
		{"estimate", p("caps.cdx"), "--format", "cdx", "--shard", "0/2", "-o", p("es0")},
		{"estimate", p("caps.cdx"), "--format", "cdx", "--shard", "1/2", "-o", p("es1")},
	} {
		if code, msg := stderrOf(t, append([]string{"-q"}, args...)...); code != exitOK {
			t.Fatalf("revisit %s: exit %d: %s", strings.Join(args, " "), code, msg)
		}
	}
	return p, []string{p("log.csv"), "--id", "id", "--time", "time"}
}

// Every command refuses an output path holding files revisit did not
// write with the same exit code, the README's "refused output" (2), before
// it does any work, and leaves the path as it was.
func TestRefusedOutputExitCode(t *testing.T) {
	want := readmeCode(t, "refused output")
	p, log := refusalFixtures(t)
	for _, c := range []struct {
		name string
		args []string
		file bool // -o names the user's file itself, not its directory
	}{
		{"ingest", append([]string{"ingest"}, log...), false},
		{"replay", []string{"replay", p("ds")}, false},
		{"replay shard", []string{"replay", p("ds"), "--shard", "0/2"}, false},
		{"analyze", []string{"analyze", p("ds"), p("rp"), "--reps", "19"}, false},
		{"analyze shard", []string{"analyze", p("ds"), "--reps", "19", "--shard", "0/2"}, false},
		{"report", []string{"report", p("an")}, false},
		{"policies", []string{"policies", p("ds"), "--budget", "2", "--no-sweeps"}, false},
		{"estimate", []string{"estimate", p("caps.cdx"), "--format", "cdx"}, false},
		{"simulate", []string{"simulate", "--T", "1e2", "--paths", "2"}, false},
		{"schedule", []string{"schedule", p("ds"), "--budget", "30/d"}, false},
		{"run", append([]string{"run"}, log...), false},
		{"generate parquet", []string{"generate", "--pages", "3", "--format", "parquet"}, false},
		{"generate yelp", []string{"generate", "--pages", "3", "--format", "yelp"}, false},
		{"generate mediawiki", []string{"generate", "--pages", "3"}, true},
		{"merge replay", []string{"merge", "replay", p("rs0"), p("rs1")}, false},
		{"merge analysis", []string{"merge", "analysis", p("as0"), p("as1")}, false},
		{"merge estimate", []string{"merge", "estimate", p("es0"), p("es1")}, false},
		{"merge dataset", []string{"merge", "dataset", p("ds")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			mine := filepath.Join(t.TempDir(), "mine")
			os.MkdirAll(mine, 0o755)
			notes := filepath.Join(mine, "notes.txt")
			os.WriteFile(notes, []byte("mine"), 0o644)
			out := mine
			if c.file {
				out = notes
			}
			code, msg := stderrOf(t, append(append([]string{"-q"}, c.args...), "-o", out)...)
			if code != want {
				t.Errorf("exit %d, want %d (refused output); stderr: %s", code, want, msg)
			}
			if !strings.Contains(msg, out) || !(strings.Contains(msg, "refus") || strings.Contains(msg, "not written by revisit")) {
				t.Errorf("the message does not say that %s is refused: %s", out, msg)
			}
			// run's refusal is pipeline's *UsageError, which does not
			// tell a refused -o from bad options: it points at --help.
			if c.name != "run" && strings.Contains(msg, "--help") {
				t.Errorf("a refused output is not bad usage: no pointer to --help wanted: %s", msg)
			}
			if got := dirNames(t, mine); len(got) != 1 || got[0] != "notes.txt" {
				t.Errorf("the user's directory changed: %v", got)
			}
			if b, _ := os.ReadFile(notes); string(b) != "mine" {
				t.Errorf("the user's file changed: %q", b)
			}
		})
	}
}

// An output another revisit process is writing (its lock is held) is a
// refused output too: exit 2, without the pointer to --help.
func TestBusyOutputExitCode(t *testing.T) {
	want := readmeCode(t, "refused output")
	p, _ := refusalFixtures(t)
	out := p("busy")
	held, err := atomicdir.Create(out, replay.MetaFile, "replay output") // as another replay writing it
	if err != nil {
		t.Fatal(err)
	}
	defer held.Abort()
	code, msg := stderrOf(t, "-q", "replay", p("ds"), "--top", "3", "-o", out)
	if code != want || !strings.Contains(msg, "another revisit process") || strings.Contains(msg, "--help") {
		t.Errorf("replay into an output being written: exit %d, want %d; stderr: %s", code, want, msg)
	}
}

// A refusal found late (atomicdir.Commit re-checks the output after the
// work, when another process may have put a user's file there) is the
// same refusal as the early check's: exit 2, and no "--help" hint, since
// the fix is the output path, not the command line.
func TestLateRefusalIsExitTwo(t *testing.T) {
	late := fmt.Errorf("replay: %w", &atomicdir.RefusedError{Path: "out", What: "replay output", Reason: "it holds entries revisit did not write", Foreign: []string{"NOTES.md"}})
	if got := supervise.ExitCode(late); got != exitUsage {
		t.Fatalf("supervise.ExitCode(late refusal) = %d, want %d", got, exitUsage)
	}
	if got := supervise.ExitCode(fmt.Errorf("run: %w", &pipeline.UsageError{Err: late})); got != exitUsage {
		t.Fatalf("supervise.ExitCode(run's refusal) = %d, want %d", got, exitUsage)
	}
}
