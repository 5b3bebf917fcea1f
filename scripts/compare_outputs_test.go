package scripts

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// compare-outputs.sh compares simulate.txt without the time simulate
// prints at the end of its first line: human.Elapsed's "826 ms" below a
// second and time.Duration's "1s", "12.3s", "1m2.5s" above. The sed
// expression is taken from the script itself and run on each form.
func TestCompareOutputsDropsSimulateTime(t *testing.T) {
	src, err := os.ReadFile("compare-outputs.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\*/simulate\.txt\) sed -E '([^']+)'`).FindSubmatch(src)
	if m == nil {
		t.Fatal("compare-outputs.sh: no sed expression for simulate.txt")
	}
	const head = "simulate: update pareto:3,1 (E[U] = 0.5), h = 0.05, x_max = 30.62, 10 paths per T"
	for _, took := range []string{"826 ms", "1s", "12.3s", "1m2.5s"} {
		cmd := exec.Command("sed", "-E", string(m[1]))
		cmd.Stdin = strings.NewReader(head + ", " + took + "\nM2 0.5, 1s\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if want := head + "\nM2 0.5, 1s\n"; string(out) != want {
			t.Errorf("%s: %q, want %q (only the first line's time dropped)", took, out, want)
		}
	}
}

// compare-messages.sh replaces what says how fast a command ran, and only
// that: its norm function, sourced from the script, on the lines revisit
// prints.
func TestCompareMessagesNormalisesOnlyTimings(t *testing.T) {
	src, err := os.ReadFile("compare-messages.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\nnorm\(\) \{\n.*?\n\}\n`).Find(src)
	if m == nil {
		t.Fatal("compare-messages.sh: no norm function")
	}
	in := strings.Join([]string{
		"simulate: update exp:1 (E[U] = 1), h = 0.1, x_max = 6.908, 3 paths per T, 826 ms",
		"ingested 1 input: 2.3 MB read (15 MB decompressed) in 32 ms: 475 MB/s, 1,080,037 revisions/s → ds",
		"revisit run: [3/7] analyze (1m2.5s elapsed)",
		"  replay: 3 pages × 2 samplers, 111 rows in 1.6s → runout/replay",
		"revisit run: done in 2.5s: 26 tables, 11 figures",
		"replay: 7 page×sampler jobs done (3/s)",
		"h per page (median 1.843 min, range 0.6045–1.873 min) over 365 d",
		"revisit: --budget \"0/d\": want a rate > 0 such as 5000/d or 200/h",
	}, "\n") + "\n"
	want := strings.Join([]string{
		"simulate: update exp:1 (E[U] = 1), h = 0.1, x_max = 6.908, 3 paths per T, <T>",
		"ingested 1 input: 2.3 MB read (15 MB decompressed) in <T>: <R>B/s, <R> revisions/s → ds",
		"revisit run: [3/7] analyze (<T> elapsed)",
		"  replay: 3 pages × 2 samplers, 111 rows in <T> → runout/replay",
		"revisit run: done in <T>: 26 tables, 11 figures",
		"h per page (median 1.843 min, range 0.6045–1.873 min) over 365 d",
		"revisit: --budget \"0/d\": want a rate > 0 such as 5000/d or 200/h",
	}, "\n") + "\n"
	f := t.TempDir() + "/said.txt"
	if err := os.WriteFile(f, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", string(m)+"\nnorm \"$1\"", "bash", f).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("norm:\n%s\nwant:\n%s", out, want)
	}
}
