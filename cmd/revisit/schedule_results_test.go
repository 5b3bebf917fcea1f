package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
)

// resultsDoc is written by scripts/schedule-experiments.sh.
const resultsDoc = "../../docs/schedule-results.md"

// consoleBlock is one command of the doc and what it printed.
type consoleBlock struct {
	cmd  string
	want string
}

// smallBlocks are the console blocks between the small-setting markers
// of the doc.
func smallBlocks(t *testing.T, doc string) []consoleBlock {
	t.Helper()
	const begin, end = "<!-- small setting: begin -->", "<!-- small setting: end -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no small-setting markers", resultsDoc)
	}
	var out []consoleBlock
	rest := doc[i:j]
	for {
		k := strings.Index(rest, "```console\n")
		if k < 0 {
			break
		}
		rest = rest[k+len("```console\n"):]
		e := strings.Index(rest, "```\n")
		if e < 0 {
			t.Fatalf("%s: unterminated console block", resultsDoc)
		}
		body := rest[:e]
		rest = rest[e+4:]
		nl := strings.IndexByte(body, '\n')
		if nl < 0 || !strings.HasPrefix(body, "$ revisit ") {
			t.Fatalf("%s: console block without a `$ revisit` line: %q", resultsDoc, body)
		}
		out = append(out, consoleBlock{cmd: body[len("$ "):nl], want: body[nl+1:]})
	}
	return out
}

// shellWords splits a command line as the script's shell does for the
// lines it writes: words separated by spaces, '…' quoting, $REAL replaced
// by realRoot.
func shellWords(t *testing.T, line, realRoot string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	for i, s := range words {
		words[i] = strings.ReplaceAll(s, "$REAL", realRoot)
	}
	return words
}

// The small setting of docs/schedule-results.md is what the commands
// shown there print now: every command is run again (in-process, from a
// scratch directory) and its output compared with the doc byte for byte.
// On the generated Poisson pages the sanity check holds: gu and
// Cho–Garcia-Molina realise the same freshness (within 1 %) and need the
// same budget for 0.9 (within 1 %), and the median of |f_cho/f_gu − 1|
// is below 2 % (measured 1.2 %: the two are computed from different
// estimates, M4's Ĝ and the Poisson baseline's λ̂, of each page; on exact
// exponential curves schedule.TestGUEqualsChoGMOnPoisson holds them within
// 1 %).
func TestScheduleResultsDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the small setting of the schedule experiments (~15 s of CPU)")
	}
	raw, err := os.ReadFile(resultsDoc)
	if err != nil {
		t.Fatal(err)
	}
	realRoot := realdata.Dir(t)
	blocks := smallBlocks(t, string(raw))
	if len(blocks) < 12 {
		t.Fatalf("%d commands in the small setting, want the 6 corpora and their 6 validations", len(blocks))
	}
	t.Chdir(t.TempDir())
	for _, b := range blocks {
		args := shellWords(t, b.cmd, realRoot)
		code, stdout, stderr := outputsOf(t, args[1:]...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", b.cmd, code, stderr)
		}
		if stdout != b.want {
			t.Errorf("%s: prints\n%s\nthe doc says\n%s", b.cmd, stdout, b.want)
		}
	}
	res, err := tables.Read("res-small/poisson")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string][]any{}
	for _, tb := range res.Tables {
		rows[tb.ID] = map[string][]any{}
		for _, r := range tb.Rows {
			if name, ok := r[0].(string); ok {
				rows[tb.ID][name] = r
			}
		}
	}
	val, tgt := rows["schedule_validation"], rows["schedule_validation_target"]
	if val == nil || tgt == nil || val["gu"] == nil || val["cho-gm"] == nil {
		t.Fatalf("res-small/poisson: tables %v", rows)
	}
	f := func(r []any, k int) float64 { return r[k].(float64) }
	gu, cho := val["gu"], val["cho-gm"]
	if d := math.Abs(f(gu, 1)/f(cho, 1) - 1); d > 0.01 {
		t.Errorf("Poisson pages: realised freshness gu %.5f, cho-gm %.5f", f(gu, 1), f(cho, 1))
	}
	if d := math.Abs(f(tgt["gu"], 1)/f(tgt["cho-gm"], 1) - 1); d > 0.01 {
		t.Errorf("Poisson pages: budget for 0.9 gu %.5g, cho-gm %.5g visits/day", f(tgt["gu"], 1), f(tgt["cho-gm"], 1))
	}
	if s := f(cho, 5); !(s < 0.02) {
		t.Errorf("Poisson pages: median |f_cho/f_gu − 1| = %.4f", s)
	}
	if _, err := os.Stat(filepath.Join("res-small", "poisson", "figures", "schedule_validation_budget.json")); err != nil {
		t.Errorf("no freshness-against-budget figure: %v", err)
	}
}
