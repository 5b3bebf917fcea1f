package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flag name means one thing in every command: the old spelling of a
// renamed flag is bad usage naming the new one, checked before any input
// is read or output made (the input NX does not exist), and run refuses a
// --title that reads as a column index.
func TestRenamedFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	nx := filepath.Join(dir, "NX")
	for _, c := range []struct {
		args []string
		want string // in the message: the flag to write instead
	}{
		{[]string{"ingest", nx, "--id", "0", "--time", "2", "--title", "1"}, "--title-column 1"},
		{[]string{"run", nx, "--id", "0", "--time", "2", "--title", "1"}, "--title-column 1"},
		{[]string{"run", nx, "--title", " 7 "}, "--title-column 7"},
		{[]string{"analyze", nx, "--min-updates", "2"}, "--screen-updates 2"},
		{[]string{"policies", nx, "--cycle", "7d", "--budget", "5", "--group", "city"}, "--sites city"},
		{[]string{"generate", "--pages", "pages.txt"}, `--page-count pages.txt`},
		{[]string{"generate", "--pages", "5", "--page-count", "6"}, `--page-count 5`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "new", "out")
			args := append(append([]string{"-q"}, c.args...), "-o", out)
			code, msg := stderrOf(t, args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, msg)
			}
			if !strings.Contains(msg, c.want) {
				t.Errorf("the message does not say %q:\n%s", c.want, msg)
			}
			if strings.Contains(msg, nx) {
				t.Errorf("the input was read before the usage was checked:\n%s", msg)
			}
			if _, err := os.Lstat(filepath.Dir(out)); !os.IsNotExist(err) {
				t.Errorf("%s was created (%v)", filepath.Dir(out), err)
			}
		})
	}
}

// The old spelling of a renamed flag is taken where its value can mean
// only the new flag's (generate --pages 5: a count), and run --title takes
// any title that is not a whole number.
func TestRenamedFlagsAccepted(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"--pages", "--page-count"} {
		out := filepath.Join(dir, "gen"+flag+".xml")
		if code, msg := stderrOf(t, "-q", "generate", flag, "3", "--span", "30d", "-o", out); code != exitOK {
			t.Fatalf("generate %s 3: exit %d\n%s", flag, code, msg)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "<page>"); n != 3 {
			t.Errorf("generate %s 3 wrote %d pages", flag, n)
		}
	}
	log := filepath.Join(dir, "log.csv")
	var sb strings.Builder
	sb.WriteString("id,name,ts\n")
	for d := 1; d <= 28; d++ {
		sb.WriteString("1,Alpha,2020-02-" + twoDigits(d) + "\n")
	}
	os.WriteFile(log, []byte(sb.String()), 0o644)
	out := filepath.Join(dir, "run")
	if code, msg := stderrOf(t, "-q", "run", log, "--id", "0", "--time", "2", "--title-column", "1", "--title", "Edits 2020", "-o", out); code != exitOK {
		t.Fatalf("run --title 'Edits 2020': exit %d\n%s", code, msg)
	}
	b, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "<title>Edits 2020</title>") {
		t.Errorf("the report is not titled \"Edits 2020\"")
	}
}

func twoDigits(d int) string { return string([]byte{byte('0' + d/10), byte('0' + d%10)}) }

// quoteArg leaves a plain shell word as it is and quotes anything else.
func TestQuoteArg(t *testing.T) {
	for v, want := range map[string]string{"": `""`, "city": "city", "hash:20": "hash:20", "2%": "2%", "a/b-c_d.e,f": "a/b-c_d.e,f",
		"New York": `"New York"`, "é": `"é"`, "a;rm": `"a;rm"`, "x\x1b": `"x\x1b"`} {
		if got := quoteArg(v); got != want {
			t.Errorf("quoteArg(%q) = %s, want %s", v, got, want)
		}
	}
}
