package scripts

import (
	"os/exec"
	"strings"
	"testing"
)

// make demo and make clean write and remove only under BIN and DEMO when
// they are given: nothing in the checkout, and clean removes what the demo
// wrote, not the DEMO folder with whatever else it holds.
func TestMakeDemoWritesUnderBINAndDEMO(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	const bin, demo = "/elsewhere/b/revisit", "/elsewhere/demo"
	for _, target := range []string{"demo", "clean"} {
		cmd := exec.Command("make", "-n", target, "BIN="+bin, "DEMO="+demo)
		cmd.Dir = ".."
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, b)
		}
		out := string(b)
		for _, inCheckout := range []string{"demo-out", " bin/", "rm -rf bin", "rm -rf " + demo + "\n", "rm -rf " + demo + " "} {
			if strings.Contains(out, inCheckout) {
				t.Errorf("make -n %s BIN=%s DEMO=%s runs %q:\n%s", target, bin, demo, inCheckout, out)
			}
		}
		if target == "demo" && (!strings.Contains(out, "-o "+bin) || !strings.Contains(out, `demo.sh "`+bin+`" "`+demo+`"`)) {
			t.Errorf("make -n demo does not build into BIN and run the demo into DEMO:\n%s", out)
		}
	}
}
