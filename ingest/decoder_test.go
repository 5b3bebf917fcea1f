package ingest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// needDecoder returns the path of the system decoder named (xz, 7z),
// skipping the test without it — failing under CI=true, where
// scripts/test-deps.d/lzma-tools.sh installs both.
func needDecoder(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	msg := strings.Join(names, ", ") + " not on PATH"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI=true requires it (scripts/test-deps.d/lzma-tools.sh installs it)")
	}
	t.Skip(msg + "; skipping (apt-get install xz-utils 7zip)")
	return ""
}

// ingestion is one run of Run: its dataset's pages and manifest, or its
// error.
type ingestion struct {
	err      error
	pages    []series.Page
	manifest dataset.Manifest
}

func ingestWith(t *testing.T, opt Options, builtin bool) ingestion {
	t.Helper()
	opt.BuiltinDecoders = builtin
	opt.Output = filepath.Join(t.TempDir(), "ds")
	_, err := Run(context.Background(), opt)
	var ee *EmptyError
	if err != nil {
		if errors.As(err, &ee) {
			return ingestion{err: err, manifest: dataset.Manifest{Counts: ee.Summary.Counts}}
		}
		return ingestion{err: err}
	}
	pages, m := readDataset(t, opt.Output)
	return ingestion{pages: pages, manifest: *m}
}

// sameDataset ingests opt's inputs with the system decoders and with the
// built-in ones and fails when the datasets differ: the pages (ids,
// titles, update times), the manifest's counts, bad records, truncated
// pages and inputs (all but the decoder), or, when the runs fail, the
// error's file, offset, page and reason. It returns the decoders the
// system run recorded.
func sameDataset(t *testing.T, opt Options) []string {
	t.Helper()
	sys, in := ingestWith(t, opt, false), ingestWith(t, opt, true)
	name := strings.Join(opt.Inputs, " ")
	if (sys.err == nil) != (in.err == nil) {
		t.Fatalf("%s: error %v with the system decoders, %v with the built-in ones", name, sys.err, in.err)
	}
	if sys.err != nil {
		var sp, ip *source.ParseError
		var sc, ic *decompress.CorruptError
		switch {
		case errors.As(in.err, &ip):
			if !errors.As(sys.err, &sp) || sp.File != ip.File || sp.Offset != ip.Offset || sp.Page != ip.Page || sp.Reason != ip.Reason {
				t.Errorf("%s: error %v with the system decoders, %v with the built-in ones", name, sys.err, in.err)
			}
		case errors.As(in.err, &ic):
			if !errors.As(sys.err, &sc) || sc.File != ic.File || sc.Offset != ic.Offset || sc.Truncated != ic.Truncated {
				t.Errorf("%s: error %v with the system decoders, %v with the built-in ones", name, sys.err, in.err)
			}
		}
		if !reflect.DeepEqual(sys.manifest.Counts, in.manifest.Counts) {
			t.Errorf("%s: counts %+v with the system decoders, %+v with the built-in ones", name, sys.manifest.Counts, in.manifest.Counts)
		}
		return nil
	}
	if !reflect.DeepEqual(sys.pages, in.pages) {
		t.Errorf("%s: %d pages with the system decoders, %d with the built-in ones, or other updates", name, len(sys.pages), len(in.pages))
	}
	sm, im := sys.manifest, in.manifest
	if !reflect.DeepEqual(sm.Counts, im.Counts) {
		t.Errorf("%s: counts %+v with the system decoders, %+v with the built-in ones", name, sm.Counts, im.Counts)
	}
	if !reflect.DeepEqual(sm.Extra[extraTruncated], im.Extra[extraTruncated]) {
		t.Errorf("%s: truncated pages %v with the system decoders, %v with the built-in ones", name, sm.Extra[extraTruncated], im.Extra[extraTruncated])
	}
	var decoders []string
	for i := range sm.Inputs {
		s, b := sm.Inputs[i], im.Inputs[i]
		decoders = append(decoders, s.Decoder)
		if b.Decoder != decompress.Builtin {
			t.Errorf("%s: decoder %q with --builtin-decoders", b.Name, b.Decoder)
		}
		s.Decoder, b.Decoder = "", ""
		if !reflect.DeepEqual(s, b) {
			t.Errorf("input %+v with the system decoders, %+v with the built-in ones", s, b)
		}
	}
	return decoders
}

// generatedDump writes a generated stub-style MediaWiki dump of about
// 14 MB (150 pages, 3 years; more than decompress holds back) into dir and returns its path.
func generatedDump(t *testing.T, dir string) string {
	t.Helper()
	ms, err := generate.ParseModels([]string{"exp:0.2"}, units.Day)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "gen.xml")
	_, err = generate.Run(generate.Options{
		Config: generate.Config{Pages: 150, Models: ms, Seed: 7, Start: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC),
			Span: 3 * 365 * units.Day, UnitName: "d", Unit: units.Day},
		Format: generate.FormatMediaWiki, Out: p, Truth: filepath.Join(dir, "gen.truth.json"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// packWith compresses src with a command-line tool into dst.
func packWith(t *testing.T, src, dst string, tool string, args ...string) {
	t.Helper()
	var cmd *exec.Cmd
	if strings.HasPrefix(filepath.Base(tool), "7z") {
		cmd = exec.Command(tool, append(append([]string{"a", "-bd", "-bso0", "-bsp0"}, args...), dst, src)...)
	} else {
		out, err := os.Create(dst)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		cmd = exec.Command(tool, append(args, "-c", src)...)
		cmd.Stdout = out
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
}

// The same dataset — pages, counts, bad records, truncated pages, inputs
// — whether the system's xz and 7z decode or the built-in decoders do:
// on the real compressed samples, on a generated dump packed as .xz,
// .lzma and .7z, and on those files cut short or with a byte changed,
// with --skip-bad and without. The manifest names the decoder: the
// system's for intact files, ", then builtin" where it failed.
func TestSystemDecodersSameDataset(t *testing.T) {
	xzBin := needDecoder(t, "xz")
	szBin := needDecoder(t, "7zz", "7z", "7za")
	for _, rel := range []string{"wikimedia__pywikibot/article-pyrus.xml.xz", "wikimedia__pywikibot/article-pyrus.xml.lzma",
		"wikimedia__pywikibot/article-pyrus.xml.7z", "maribelacosta__wikiwho/large.xml.lzma"} {
		if testing.Short() && strings.HasPrefix(rel, "maribelacosta") {
			continue // 1 GB decompressed, twice
		}
		p := realdata.Path(t, "wikipedia/"+rel)
		dec := sameDataset(t, Options{Inputs: []string{p}})
		if len(dec) != 1 || !strings.HasPrefix(dec[0], "xz ") && !strings.HasPrefix(dec[0], "7z ") {
			t.Errorf("%s: decoders %q, want the system's", rel, dec)
		}
	}
	dir := t.TempDir()
	src := generatedDump(t, dir)
	packed := map[string]string{"xz": filepath.Join(dir, "gen.xml.xz"), "lzma": filepath.Join(dir, "gen.xml.lzma"), "7z": filepath.Join(dir, "gen.7z")}
	packWith(t, src, packed["xz"], xzBin, "-1", "-T2", "--block-size=2MiB")
	packWith(t, src, packed["lzma"], xzBin, "--format=lzma", "-1")
	packWith(t, src, packed["7z"], szBin, "-mx=1")
	for kind, p := range packed {
		want := "xz "
		if kind == "7z" {
			want = "7z "
		}
		dec := sameDataset(t, Options{Inputs: []string{p}, AllNamespaces: true})
		if len(dec) != 1 || !strings.HasPrefix(dec[0], want) {
			t.Errorf("%s: decoders %q, want the system's", p, dec)
		}
		b, _ := os.ReadFile(p)
		damaged := map[string][]byte{}
		if kind != "7z" { // a cut 7z loses its header: no decoder runs
			damaged["cut"] = b[:len(b)*7/10]
		}
		flip := append([]byte(nil), b...)
		flip[len(b)*6/10] ^= 0x55
		damaged["flip"] = flip
		for how, d := range damaged {
			q := filepath.Join(dir, how+"-"+filepath.Base(p))
			os.WriteFile(q, d, 0o644)
			sameDataset(t, Options{Inputs: []string{q}, AllNamespaces: true})
			dec := sameDataset(t, Options{Inputs: []string{q}, AllNamespaces: true, SkipBad: true})
			if len(dec) == 1 && !strings.HasSuffix(dec[0], ", then "+decompress.Builtin) {
				t.Errorf("%s: decoder %q, want the built-in decoder after the system's failed", q, dec[0])
			}
		}
	}
}
