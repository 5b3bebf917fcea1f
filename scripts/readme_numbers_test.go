// Package scripts holds the tests of scripts/readme-numbers.sh (the results
// README.md and docs/methods.md quote are recomputed and checked) and of
// compare-outputs.sh's normalisation.
package scripts

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
)

// marked is a number followed, in the Markdown source, by its key:
// "0.28%<!-- num:anarchism-m4-ks -->" (a "%" or " %" may sit between).
var marked = regexp.MustCompile(`(\d[\d,]*(?:\.\d+)?)(?: ?%)?<!-- num:([a-z0-9-]+) -->`)

// anyMarker finds every marker, to catch one not right after a number.
var anyMarker = regexp.MustCompile(`<!-- num:([a-z0-9-]+) -->`)

// TestReadmeNumbers runs scripts/readme-numbers.sh with a freshly built
// revisit on the real data and checks that every number README.md and
// docs/methods.md mark with <!-- num:KEY --> is the script's value for KEY
// rounded to the decimals quoted, that every marker follows a number, and
// that every value the script computes is quoted somewhere; and that the
// README's figure, docs/anarchism-g-m3-m4.svg, is the one the same run
// draws (the script writes it beside its numbers), byte for byte, so that
// the figure cannot go stale beside the numbers either.
func TestReadmeNumbers(t *testing.T) {
	real := realdata.Dir(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "revisit")
	build := exec.Command("go", "build", "-o", bin, "./cmd/revisit")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	figDir := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "readme-numbers.sh"), bin, real, figDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("readme-numbers.sh: %v\n%s", err, stderr.String())
	}
	values := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			t.Fatalf("readme-numbers.sh: line %q is not KEY VALUE", sc.Text())
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			t.Fatalf("readme-numbers.sh: %s: %v", f[0], err)
		}
		values[f[0]] = v
	}
	used := map[string]bool{}
	for _, doc := range []string{"README.md", "docs/methods.md"} {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if n, m := len(anyMarker.FindAllString(text, -1)), len(marked.FindAllString(text, -1)); n != m {
			t.Errorf("%s: %d markers, %d of them right after a number", doc, n, m)
		}
		for _, m := range marked.FindAllStringSubmatch(text, -1) {
			tok, key := m[1], m[2]
			used[key] = true
			v, ok := values[key]
			if !ok {
				t.Errorf("%s: %s quotes %s, which readme-numbers.sh does not compute", doc, key, tok)
				continue
			}
			if !roundsTo(v, tok) {
				t.Errorf("%s: %s is quoted as %s, but the script computes %g", doc, key, tok, v)
			}
		}
	}
	for key, v := range values {
		if !used[key] {
			t.Errorf("readme-numbers.sh computes %s = %g, which no document quotes", key, v)
		}
	}
	const figure = "anarchism-g-m3-m4.svg"
	drawn, err := os.ReadFile(filepath.Join(figDir, figure))
	if err != nil {
		t.Fatalf("readme-numbers.sh did not draw the README's figure: %v", err)
	}
	shown, err := os.ReadFile(filepath.Join(root, "docs", figure))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(drawn, shown) {
		t.Errorf("docs/%s is not the figure of the run whose numbers README.md quotes; redraw it: scripts/readme-numbers.sh bin/revisit ../shared/data/real docs", figure)
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if !strings.Contains(string(readme), "](docs/"+figure+")") {
		t.Errorf("README.md does not show docs/%s", figure)
	}
}

// roundsTo reports whether v rounded to the decimals of the quoted token
// tok ("1,145", "0.00090") is tok's value.
func roundsTo(v float64, tok string) bool {
	clean := strings.ReplaceAll(tok, ",", "")
	q, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return false
	}
	dec := 0
	if i := strings.IndexByte(clean, '.'); i >= 0 {
		dec = len(clean) - i - 1
	}
	p := math.Pow(10, float64(dec))
	return math.Round(v*p) == math.Round(q*p)
}

// roundsTo itself, by hand.
func TestRoundsTo(t *testing.T) {
	for _, c := range []struct {
		v   float64
		tok string
		ok  bool
	}{
		{1145.227, "1,145", true}, {1145.6, "1,145", false}, {0.000898, "0.00090", true},
		{0.000898, "0.0009", true}, {0.000898, "0.00089", false}, {6.54, "6.5", true}, {6.56, "6.5", false}, {48.12, "48", true},
	} {
		if got := roundsTo(c.v, c.tok); got != c.ok {
			t.Errorf("roundsTo(%g, %q) = %v", c.v, c.tok, got)
		}
	}
}
