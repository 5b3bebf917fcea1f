package decompress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
)

// needTool returns the system decoder of format, skipping the test with
// the reason when there is none — failing instead under CI=true, where
// scripts/test-deps.d/lzma-tools.sh installs xz and 7z.
func needTool(t *testing.T, format string) *tool {
	t.Helper()
	tl, why := findTool(format)
	if tl == nil {
		msg := "no system decoder for " + format + ": " + why
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true requires it (scripts/test-deps.d/lzma-tools.sh installs it)")
		}
		t.Skip(msg + "; skipping (apt-get install xz-utils 7zip, or p7zip-full)")
	}
	return tl
}

// decoded is what reading every member of an input gave.
type decoded struct {
	members map[string][]byte
	err     error
	decoder string
	sum     string
	fbAt    int64 // the bytes delivered when the built-in decoder took over
}

// decodeWith reads every member of p to its end with the decoders of opt.
func decodeWith(t *testing.T, p string, opt Options) decoded {
	t.Helper()
	r, err := OpenContext(context.Background(), p, opt)
	if err != nil {
		return decoded{err: err}
	}
	defer r.Close()
	d := decoded{members: map[string][]byte{}}
	for {
		name, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			d.err = err
			break
		}
		b, err := io.ReadAll(r)
		d.members[name] = b
		if err != nil {
			d.err = err
			break
		}
	}
	d.decoder = r.Decoder()
	if r.ext != nil {
		d.fbAt = r.ext.fbAt
	}
	d.sum, _ = r.SHA256()
	return d
}

// sameDecoding fails when the system decoder's reading of p (sys) differs
// from the built-in decoder's (in): other bytes, or another error — a
// CorruptError of another kind, file, format or offset.
func sameDecoding(t *testing.T, p string, sys, in decoded) {
	t.Helper()
	for name, want := range in.members {
		if got, ok := sys.members[name]; !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: member %q: %d bytes with %s, %d with the built-in decoder (prefix: %v)",
				p, name, len(got), sys.decoder, len(want), bytes.HasPrefix(want, got) || bytes.HasPrefix(got, want))
		}
	}
	if len(sys.members) != len(in.members) {
		t.Errorf("%s: %d members with %s, %d with the built-in decoder", p, len(sys.members), sys.decoder, len(in.members))
	}
	var sc, ic *CorruptError
	switch {
	case (sys.err == nil) != (in.err == nil):
		t.Errorf("%s: error %v with %s, %v with the built-in decoder", p, sys.err, sys.decoder, in.err)
	case errors.As(in.err, &ic) != errors.As(sys.err, &sc):
		t.Errorf("%s: error %v with %s, %v with the built-in decoder", p, sys.err, sys.decoder, in.err)
	case ic != nil && (sc.File != ic.File || sc.Format != ic.Format || sc.Offset != ic.Offset || sc.Truncated != ic.Truncated):
		t.Errorf("%s: %+v with %s, %+v with the built-in decoder", p, *sc, sys.decoder, *ic)
	}
	if sys.sum != in.sum {
		t.Errorf("%s: SHA-256 %s with %s, %s with the built-in decoder", p, sys.sum, sys.decoder, in.sum)
	}
}

// compare decodes p with the system decoder and with the built-in one,
// and fails when they differ; it returns the system decoder's reading.
func compare(t *testing.T, p string) decoded {
	t.Helper()
	sys := decodeWith(t, p, Options{})
	in := decodeWith(t, p, Options{Builtin: true})
	if in.decoder != Builtin {
		t.Errorf("%s: decoder %q with Options.Builtin", p, in.decoder)
	}
	sameDecoding(t, p, sys, in)
	return sys
}

// pack runs a tool that compresses the file src (xz, or 7z into an
// archive) and returns the compressed bytes.
func pack(t *testing.T, src string, name string, args ...string) []byte {
	t.Helper()
	out := src + "." + strings.ReplaceAll(strings.Join(args, ""), "/", "_")
	var cmd *exec.Cmd
	if name == "7z" {
		out += ".7z"
		cmd = exec.Command(needTool(t, SevenZip).path, append(append([]string{"a", "-bd", "-bso0", "-bsp0"}, args...), out, src)...)
	} else {
		cmd = exec.Command(needTool(t, XZ).path, append(args, "-c", "-k", src)...)
	}
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	if name == "7z" {
		if b, err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
		os.Remove(out)
	}
	return b
}

// The system decoders give the built-in decoders' bytes: the real
// samples (the same Pyrus page as .xz, .lzma and .7z, and the 1 GB
// Anarchism history as .lzma), and generated documents packed by xz and
// 7z with their presets, filters and methods — among them documents
// larger than what is held back (holdBack), so the ring buffer wraps.
func TestSystemDecoderSameBytes(t *testing.T) {
	needTool(t, XZ)
	needTool(t, SevenZip)
	for _, rel := range []string{"wikimedia__pywikibot/article-pyrus.xml.xz", "wikimedia__pywikibot/article-pyrus.xml.lzma",
		"wikimedia__pywikibot/article-pyrus.xml.7z", "maribelacosta__wikiwho/large.xml.lzma"} {
		p := realdata.Path(t, "wikipedia/"+rel)
		if d := compare(t, p); !strings.HasPrefix(d.decoder, "xz ") && !strings.HasPrefix(d.decoder, "7z ") {
			t.Errorf("%s: decoded by %q, want the system's xz or 7z", p, d.decoder)
		}
	}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.xml")
	large := filepath.Join(dir, "large.xml")
	os.WriteFile(small, pagesXML(200), 0o644)
	os.WriteFile(large, pagesXML(7000), 0o644) // 12.9 MB
	cases := []struct {
		src  string
		tool string
		args []string
	}{
		{small, "xz", []string{"-6"}},
		{small, "xz", []string{"-9e", "--check=sha256"}},
		{small, "xz", []string{"--check=none", "--block-size=20000"}},
		{small, "xz", []string{"--format=lzma", "-6"}},
		{large, "xz", []string{"-1", "-T2", "--block-size=3MiB"}},
		{large, "xz", []string{"--format=lzma", "-1"}},
		{small, "7z", []string{"-m0=lzma2"}},
		{small, "7z", []string{"-m0=lzma"}},
		{small, "7z", []string{"-m0=ppmd"}},
		{small, "7z", []string{"-m0=bzip2"}},
		{small, "7z", []string{"-mf=BCJ", "-m0=lzma"}},
		{large, "7z", []string{"-mx=1"}},
	}
	for i, c := range cases {
		p := filepath.Join(dir, fmt.Sprintf("case%d", i))
		os.WriteFile(p, pack(t, c.src, c.tool, c.args...), 0o644)
		if d := compare(t, p); !strings.HasPrefix(d.decoder, c.tool+" ") {
			t.Errorf("%s %v: decoded by %q, want the system's %s", c.tool, c.args, d.decoder, c.tool)
		}
	}
	// An xz filter chain with a branch converter before LZMA2 is decoded
	// by xz; the built-in decoder knows LZMA2 alone and refuses it.
	p := filepath.Join(dir, "x86.xz")
	os.WriteFile(p, pack(t, small, "xz", "--x86", "--lzma2=preset=1"), 0o644)
	want, _ := os.ReadFile(small)
	if d := decodeWith(t, p, Options{}); d.err != nil || !bytes.Equal(d.members[""], want) {
		t.Errorf("xz --x86 with xz: %v, %d bytes, want %d", d.err, len(d.members[""]), len(want))
	}
	if d := decodeWith(t, p, Options{Builtin: true}); d.err == nil || !strings.Contains(d.err.Error(), "unsupported filter") {
		t.Errorf("xz --x86 with the built-in decoder: %v, want an unsupported filter", d.err)
	}
}

// A damaged file gives the same bytes and the same error whichever
// decoder runs: files cut at several places, with bytes changed (a seeded
// source), with bytes after their end. Where the system decoder fails,
// the built-in one takes over (the decoder says so) — also past what was
// held back, in the large documents.
func TestSystemDecoderDamage(t *testing.T) {
	needTool(t, XZ)
	needTool(t, SevenZip)
	dir := t.TempDir()
	small := filepath.Join(dir, "small.xml")
	large := filepath.Join(dir, "large.xml")
	os.WriteFile(small, pagesXML(300), 0o644)
	os.WriteFile(large, pagesXML(7000), 0o644)
	rng := rand.New(rand.NewPCG(3, 4))
	type file struct {
		name string
		b    []byte
		body int // damage only bytes [32, body): a 7z archive's header is after them
	}
	var files []file
	for _, f := range []struct{ name, src, tool string }{
		{"s.xz", small, "xz"}, {"l.xz", large, "xz"}, {"s.lzma", small, "xz"}, {"l.lzma", large, "xz"},
		{"s.7z", small, "7z"}, {"l.7z", large, "7z"},
	} {
		var args []string
		switch filepath.Ext(f.name) {
		case ".xz":
			args = []string{"-1", "-T2", "--block-size=1MiB"}
		case ".lzma":
			args = []string{"--format=lzma", "-1"}
		case ".7z":
			args = []string{"-mx=1"}
		}
		b := pack(t, f.src, f.tool, args...)
		body := len(b)
		if f.tool == "7z" {
			body = 32 + int(b[12]) | int(b[13])<<8 | int(b[14])<<16 | int(b[15])<<24 // the start header's next header offset
		}
		files = append(files, file{f.name, b, body})
	}
	sawFallback, sawLate := false, false
	for _, f := range files {
		variants := map[string][]byte{"garbage": append(bytes.Clone(f.b), "trailing bytes"...)}
		if !strings.HasSuffix(f.name, ".7z") { // a cut 7z loses its header: Open fails before any decoder runs
			fracs := []float64{0.3, 0.8, 0.999}
			if len(f.b) > 1<<20 {
				fracs = []float64{0.8}
			}
			for _, frac := range fracs {
				variants[fmt.Sprintf("cut%g", frac)] = f.b[:int(float64(len(f.b))*frac)]
			}
		}
		flips := 3
		if len(f.b) > 1<<20 {
			flips = 1
		}
		for k := 0; k < flips; k++ {
			b := bytes.Clone(f.b)
			at := 32 + int(float64(f.body-32)*(0.2+0.7*rng.Float64()))
			b[at] ^= byte(rng.IntN(255) + 1)
			variants[fmt.Sprintf("flip%d@%d", k, at)] = b
		}
		for v, b := range variants {
			p := filepath.Join(dir, f.name+"-"+v+filepath.Ext(f.name))
			os.WriteFile(p, b, 0o644)
			sys := compare(t, p)
			if strings.HasSuffix(sys.decoder, ", then "+Builtin) {
				sawFallback = true
				sawLate = sawLate || sys.fbAt > 0
			}
		}
	}
	if !sawFallback || !sawLate {
		t.Errorf("the built-in decoder took over: %v, after bytes were delivered: %v; want both", sawFallback, sawLate)
	}
}

// fakeTool writes an executable shell script named name into dir.
func fakeTool(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A program on PATH named xz or 7z that is not XZ Utils or 7-Zip, or an
// XZ Utils or 7-Zip older than the minimum, is not used: the built-in
// decoder decodes, and Decoder says why.
func TestSystemDecoderImpostor(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the fake tools")
	}
	pyrus := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	plain, _ := os.ReadFile(pyrus)
	for _, c := range []struct {
		name, script, input, why string
	}{
		{"xz", `echo "xz 1.2 from another project"; cat`, ".xz", "is not XZ Utils' xz"},
		{"xz", `echo "xz (XZ Utils) 5.0.8"`, ".xz", "older than 5.2"},
		{"xz", `echo "xz (XZ Utils) 5.0.8"`, ".lzma", "older than 5.2"},
		{"7z", `echo "7z: a different program"`, ".7z", "is not 7-Zip"},
		{"7z", "echo\necho '7-Zip [64] 9.20  Copyright (c) 1999-2010 Igor Pavlov  2010-11-18'", ".7z", "older than 16.02"},
	} {
		dir := t.TempDir()
		fakeTool(t, dir, c.name, c.script)
		t.Setenv("PATH", dir)
		d := decodeWith(t, pyrus+c.input, Options{})
		if d.err != nil || !bytes.Equal(d.members[map[string]string{".7z": "article-pyrus.xml"}[c.input]], plain) {
			t.Errorf("fake %s: %v, %d members", c.name, d.err, len(d.members))
		}
		if !strings.HasPrefix(d.decoder, Builtin+" (") || !strings.Contains(d.decoder, c.why) {
			t.Errorf("fake %s (%s): decoder %q, want builtin saying %q", c.name, c.input, d.decoder, c.why)
		}
	}
}

// A 7z-named program that passes the version check but writes other
// bytes than the archive holds is caught by the member's size and CRC-32
// in the archive's header: the built-in decoder takes over.
func TestSystemDecoderWrongOutput(t *testing.T) {
	pyrus := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	plain, _ := os.ReadFile(pyrus)
	dir := t.TempDir()
	fakeTool(t, dir, "7z", `echo "7-Zip [64] 25.01 : Copyright (c) 1999-2025 Igor Pavlov : 2025-08-03"
[ $# -gt 0 ] && echo "not the member"`)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	d := decodeWith(t, pyrus+".7z", Options{})
	if d.err != nil || !bytes.Equal(d.members["article-pyrus.xml"], plain) {
		t.Fatalf("%v, %d bytes, want the %d of the page", d.err, len(d.members["article-pyrus.xml"]), len(plain))
	}
	if d.decoder != "7z 25.01, then "+Builtin {
		t.Errorf("decoder %q", d.decoder)
	}
}

// Standard input is decoded by the built-in decoder (it cannot be read a
// second time, as the fallback needs), and Decoder says so.
func TestSystemDecoderStdin(t *testing.T) {
	needTool(t, XZ)
	p := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.xz")
	plain, _ := os.ReadFile(strings.TrimSuffix(p, ".xz"))
	r := openPipe(t, p)
	defer r.Close()
	if got := readAll(t, r); !bytes.Equal(got, plain) {
		t.Fatalf("%d bytes, want %d", len(got), len(plain))
	}
	if !strings.HasPrefix(r.Decoder(), Builtin+" (standard input") {
		t.Errorf("decoder %q", r.Decoder())
	}
}

// largeXZ writes a 12.9 MB document packed by xz into dir and returns its
// path.
func largeXZ(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(dir, "doc.xml")
	os.WriteFile(src, pagesXML(7000), 0o644)
	p := filepath.Join(dir, "doc.xml.xz")
	os.WriteFile(p, pack(t, src, "xz", "-1"), 0o644)
	return p
}

// xz 5.4 and later decode the blocks of a file in parallel within a
// memory bound; older ones decode one at a time and do not know the
// bound's option (they would refuse it). 7z gets the archive's path.
func TestSystemDecoderArgs(t *testing.T) {
	xz52 := &tool{name: "xz", major: 5, minor: 2}
	xz54 := &tool{name: "xz", major: 5, minor: 4}
	if got := strings.Join(xz52.args(XZ, ""), " "); got != "--decompress --stdout" {
		t.Errorf("xz 5.2: %s", got)
	}
	if got := strings.Join(xz54.args(XZ, ""), " "); got != "--decompress --stdout --threads=0 --memlimit-mt-decompress="+xzThreadsMemory {
		t.Errorf("xz 5.4: %s", got)
	}
	if got := strings.Join(xz54.args(LZMA, ""), " "); got != "--format=lzma --decompress --stdout" {
		t.Errorf("xz 5.4, LZMA-alone: %s", got)
	}
	if got := (&tool{name: "7z"}).args(SevenZip, "/d/a.7z"); got[len(got)-2] != "--" || got[len(got)-1] != "/d/a.7z" {
		t.Errorf("7z: %v", got)
	}
}

// SHA256 called before the stream was read to its end stops the system
// decoder, which may still be reading the stored bytes, before hashing
// them itself: the hash is the file's.
func TestSystemDecoderEarlySHA256(t *testing.T) {
	needTool(t, XZ)
	p := largeXZ(t, t.TempDir())
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Next()
	if _, err := io.ReadFull(r, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	sum, err := r.SHA256()
	if err != nil || sum != fileSHA(t, p) {
		t.Errorf("sha256 %s, %v; want the file's %s", sum, err, fileSHA(t, p))
	}
}

// The one difference between the decoders: LZMA (not LZMA2) with a
// dictionary larger than holdBack, damaged inside. The built-in LZMA
// decoder hands out what it decoded only when its dictionary buffer is
// full, so it loses up to a dictionary of bytes before the damage; the
// system decoder keeps more of them (what was delivered when it failed),
// all before the damage. Here a 7z archive of an 11 MB document in LZMA
// with a 16 MiB dictionary, a byte changed at 90%: the built-in decoder
// delivers nothing, the system decoder a correct prefix, and both end
// with a CorruptError.
func TestSystemDecoderLZMADictionaryDamage(t *testing.T) {
	needTool(t, SevenZip)
	dir := t.TempDir()
	src := filepath.Join(dir, "doc.xml")
	doc := pagesXML(6000)
	os.WriteFile(src, doc, 0o644)
	b := pack(t, src, "7z", "-m0=lzma", "-md=16m", "-mx=1")
	body := 32 + int(b[12]) | int(b[13])<<8 | int(b[14])<<16 | int(b[15])<<24
	b[32+(body-32)*9/10] ^= 0x40
	p := filepath.Join(dir, "damaged.7z")
	os.WriteFile(p, b, 0o644)
	sys, in := decodeWith(t, p, Options{}), decodeWith(t, p, Options{Builtin: true})
	var sc, ic *CorruptError
	if !errors.As(sys.err, &sc) || !errors.As(in.err, &ic) || sc.Truncated || ic.Truncated {
		t.Fatalf("errors %v and %v, want two CorruptErrors", sys.err, in.err)
	}
	got, want := sys.members["doc.xml"], in.members["doc.xml"]
	if len(want) != 0 || len(got) == 0 || !bytes.HasPrefix(doc, got) || sc.Offset != int64(len(got)) {
		t.Errorf("system decoder %d bytes (a prefix: %v, error at %d), built-in %d; want a correct prefix and none",
			len(got), bytes.HasPrefix(doc, got), sc.Offset, len(want))
	}
	if sys.decoder != "7z "+needTool(t, SevenZip).version+", then "+Builtin {
		t.Errorf("decoder %q", sys.decoder)
	}
}
