package reports

import (
	"bytes"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium returns the headless browser, skipping the test when it is
// missing (failing under CI=true, where scripts/test-deps.d/chromium.sh
// must have installed it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	msg := "chromium not found (make test-deps installs Debian's chromium)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI=true requires it")
	}
	t.Skip(msg + "; skipping the rendering test")
	return ""
}

// runChromium loads url headless and returns what it prints (the DOM
// with --dump-dom).
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.Command(bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.Output(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("chromium did not finish in 2 minutes; stderr:\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("chromium %v: %v\nstderr:\n%s", args, err, stderr.String())
	}
	return out
}

// harness loads the report in an iframe and, once everything has loaded,
// writes what the browser actually laid out: for each figure the size of
// its inline SVG on the page and of the drawing inside it, for each table
// its rendered rows, for each <img> its natural width. The report itself
// has no script; only this test page does.
const harness = `<!DOCTYPE html><html><body>
<iframe id="r" src="%s" style="width:1280px;height:2000px"></iframe>
<pre id="out">pending</pre>
<script>
window.addEventListener('load', function () {
  var out = [];
  try {
    var d = document.getElementById('r').contentDocument;
    d.querySelectorAll('figure[data-figure]').forEach(function (f) {
      var s = f.querySelector('svg');
      var nf = f.querySelector('p.nofig');
      if (!s && nf && nf.textContent.indexOf('Not drawn: ') == 0) { out.push('figure ' + f.dataset.figure + ' nofig'); return; }
      if (!s) { out.push('figure ' + f.dataset.figure + ' nosvg'); return; }
      var r = s.getBoundingClientRect(), b = s.getBBox();
      out.push('figure ' + f.dataset.figure + ' ' + Math.round(r.width) + ' ' + Math.round(r.height) + ' ' +
        Math.round(b.width) + ' ' + Math.round(b.height) + ' ' + s.querySelectorAll('path').length + ' ' + s.querySelectorAll('text').length + ' ' + s.querySelectorAll('g.data path').length);
    });
    d.querySelectorAll('div.table[data-table]').forEach(function (t) {
      out.push('table ' + t.dataset.table + ' ' + t.querySelectorAll('tbody tr').length + ' ' + Math.round(t.querySelector('table').getBoundingClientRect().height));
    });
    d.querySelectorAll('img').forEach(function (i) { out.push('img ' + i.getAttribute('src') + ' ' + i.naturalWidth); });
    out.push('done');
  } catch (e) { out.push('error ' + e); }
  document.getElementById('out').textContent = out.join('\n');
});
</script></body></html>`

func TestRenderInChromium(t *testing.T) {
	bin := chromium(t)
	dir := writeSample(t)
	index := filepath.Join(dir, "index.html")
	b := sampleBundle()

	// 1. The page as the browser parsed it: every table and every figure
	// is there, each figure as one inline SVG.
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+index))
	for _, tb := range b.Tables {
		if !strings.Contains(dom, `data-table="`+tb.ID+`"`) {
			t.Errorf("table %s missing from the rendered DOM", tb.ID)
		}
		if !strings.Contains(dom, html.EscapeString(tb.Title)) {
			t.Errorf("title of table %s missing", tb.ID)
		}
	}
	drawn := 0
	for _, f := range b.Figures {
		re := regexp.MustCompile(`(?s)<figure id="f-` + regexp.QuoteMeta(f.ID) + `" data-figure="` + regexp.QuoteMeta(f.ID) + `">.*?</figure>`)
		fig := re.FindString(dom)
		if fig == "" {
			t.Errorf("figure %s missing from the rendered DOM", f.ID)
			continue
		}
		want := 1
		if Unplottable(&f) != "" {
			want = 0
		} else {
			drawn++
		}
		if n := strings.Count(fig, "<svg"); n != want {
			t.Errorf("figure %s holds %d <svg> elements, want %d", f.ID, n, want)
		}
	}
	if n, want := strings.Count(dom, `<svg class="plot"`), drawn; n != want {
		t.Errorf("%d inline SVG plots in the DOM, want %d", n, want)
	}
	for _, bad := range []string{"<script", "http://", "https://"} {
		if strings.Contains(strings.ReplaceAll(dom, "http://www.w3.org/", ""), bad) {
			t.Errorf("the report contains %q: it must work offline without scripts", bad)
		}
	}
	// The inline SVGs are well-formed XML in the file as written.
	src, _ := os.ReadFile(index)
	svgs := regexp.MustCompile(`(?s)<svg class="plot".*?</svg>`).FindAllString(string(src), -1)
	if len(svgs) != drawn {
		t.Errorf("%d inline SVGs in index.html, want %d", len(svgs), drawn)
	}
	for i, s := range svgs {
		if err := wellFormed(s); err != nil {
			t.Errorf("inline SVG %d is not well-formed: %v", i, err)
		}
	}

	// Each SVG's own aspect ratio (7 in × 4.3 in, taller with a legend
	// below the plot), from its viewBox.
	aspect := map[string]float64{}
	vb := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
	for _, f := range b.Figures {
		data, _ := os.ReadFile(filepath.Join(dir, "figures", f.ID+".svg"))
		if m := vb.FindStringSubmatch(string(data)); m != nil {
			w, _ := strconv.ParseFloat(m[1], 64)
			h, _ := strconv.ParseFloat(m[2], 64)
			aspect[f.ID] = w / h
		}
	}
	if a := aspect["tail"]; math.Abs(a-7/4.3) > 0.01 {
		t.Errorf("tail figure aspect %.3f, want 7/4.3", a)
	}
	if a := aspect["many"]; !(a < 7/4.3-0.2) {
		t.Errorf("figure with 8 legend entries has aspect %.3f: legend not below the plot", a)
	}

	// 2. What the browser laid out: every SVG has the plot's aspect ratio
	// and a drawing inside it; every table shows all its rows.
	h := filepath.Join(t.TempDir(), "harness.html")
	if err := os.WriteFile(h, []byte(fmt.Sprintf(harness, "file://"+index)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runChromium(t, bin, "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", "file://"+h)
	m := regexp.MustCompile(`(?s)<pre id="out">(.*?)</pre>`).FindStringSubmatch(string(out))
	if m == nil || !strings.Contains(m[1], "done") {
		t.Fatalf("harness did not report: %s", out)
	}
	t.Logf("layout:\n%s", m[1])
	seenFig, seenTab := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(html.UnescapeString(m[1]), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "figure" && f[2] == "nofig":
			seenFig[f[1]] = true
			for _, fg := range b.Figures {
				if fg.ID == f[1] && Unplottable(&fg) == "" {
					t.Errorf("figure %s replaced by a sentence, but it has points to plot", f[1])
				}
			}
		case len(f) == 9 && f[0] == "figure":
			n := atoi(f[2:])
			seenFig[f[1]] = true
			if n[0] < 300 || n[1] < 150 {
				t.Errorf("figure %s laid out at %d×%d px", f[1], n[0], n[1])
			}
			if want, ok := aspect[f[1]]; !ok || math.Abs(float64(n[0])/float64(n[1])-want) > 0.02*want {
				t.Errorf("figure %s laid out at %d×%d px, want the SVG's aspect %.3f", f[1], n[0], n[1], want)
			}
			if n[2] < 300 || n[3] < 150 || n[4] < 5 || n[5] < 4 {
				t.Errorf("figure %s: drawing %d×%d with %d paths and %d texts: not drawn", f[1], n[2], n[3], n[4], n[5])
			}
			if n[6] < 1 { // every <svg> has a plotted element (a path in a data group)
				t.Errorf("figure %s: an SVG with axes but no plotted element", f[1])
			}
		case len(f) == 4 && f[0] == "table":
			n := atoi(f[2:])
			seenTab[f[1]] = true
			for _, tb := range b.Tables {
				if tb.ID == f[1] && n[0] != len(tb.Rows) {
					t.Errorf("table %s shows %d rows, want %d", f[1], n[0], len(tb.Rows))
				}
			}
			if n[1] <= 0 {
				t.Errorf("table %s has no height", f[1])
			}
		case len(f) == 3 && f[0] == "img":
			if f[2] == "0" {
				t.Errorf("image %s did not load", f[1])
			}
		case len(f) > 0 && f[0] == "error", len(f) > 1 && f[1] == "nosvg":
			t.Errorf("harness: %s", line)
		}
	}
	for _, f := range b.Figures {
		if !seenFig[f.ID] {
			t.Errorf("figure %s not laid out", f.ID)
		}
	}
	for _, tb := range b.Tables {
		if !seenTab[tb.ID] {
			t.Errorf("table %s not laid out", tb.ID)
		}
	}

	// 3. A screenshot of the first screen, for people to look at.
	shot := filepath.Join(t.TempDir(), "report.png")
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1280,2000", "file://"+index)
	fh, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colours := map[uint32]bool{}
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y += 7 {
		for x := bd.Min.X; x < bd.Max.X; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if bd.Dx() != 1280 || len(colours) < 10 {
		t.Errorf("screenshot %dx%d with %d colours: blank page?", bd.Dx(), bd.Dy(), len(colours))
	}
	t.Logf("screenshot of the first screen: %s", shot)
	if *keep != "" { // -keep DIR: keep the screenshot beside the sample report
		if data, err := os.ReadFile(shot); err == nil {
			kept := filepath.Join(*keep, "screenshot.png")
			if err := os.WriteFile(kept, data, 0o644); err == nil {
				t.Logf("kept: %s", kept)
			}
		}
	}
}

func atoi(ss []string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i], _ = strconv.Atoi(s)
	}
	return out
}
