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
