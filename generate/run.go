package generate

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/pgzip"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/series"
)

// Output formats.
const (
	FormatMediaWiki = "mediawiki"
	FormatYelp      = "yelp"
	FormatParquet   = "parquet"
)

// Source is the dataset source name of Parquet output.
const Source = "generated"

// Options are a generation run: the corpus and where it goes.
type Options struct {
	Config
	// Format is mediawiki, yelp or parquet.
	Format string
	// Out is the output: a file for mediawiki (gzip when it ends in .gz),
	// a directory for yelp and parquet, or "-" for standard output
	// (mediawiki XML or yelp reviews).
	Out string
	// Truth is where truth.json goes; "" means the default beside Out
	// (none for "-").
	Truth string
	// Gzip compresses standard output (files: by their .gz name).
	Gzip bool
	// GzipImpl chooses the gzip writer: "pgzip" (parallel, the default) or
	// "gzip" (klauspost/compress, one goroutine).
	GzipImpl string
	// Stdout is where "-" writes (os.Stdout when nil).
	Stdout io.Writer
	// Version goes into the truth and the manifest.
	Version string
	// Progress, when set, is called after every page with the pages done
	// and the uncompressed bytes written so far.
	Progress func(pages int, bytes int64)
	// Context, when set, stops the run at the next page once it is done
	// (Ctrl-C): nothing is written.
	Context context.Context
}

// Summary is what a run produced.
type Summary struct {
	Totals
	Bytes   int64 // uncompressed bytes of the main output (XML, review JSON); 0 for parquet
	Out     string
	Truth   string
	Elapsed time.Duration
}

// DefaultTruthPath is where truth.json goes when Options.Truth is empty:
// inside the output directory (yelp, parquet), or beside a dump file with
// its extensions replaced (x.xml.gz → x.truth.json); "" for "-".
func DefaultTruthPath(format, out string) string {
	if out == "-" {
		return ""
	}
	if format != FormatMediaWiki {
		return filepath.Join(out, TruthFile)
	}
	base := out
	for _, ext := range []string{".gz", ".xml"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base + ".truth.json"
}

// Check refuses options that cannot work, before anything is read or
// written (Run checks them first too): a command line reports them as
// bad usage.
func (opt *Options) Check() error {
	if err := opt.Config.Validate(); err != nil {
		return err
	}
	switch opt.Format {
	case FormatMediaWiki, FormatYelp, FormatParquet:
	default:
		return fmt.Errorf("format %q: want mediawiki, yelp or parquet", opt.Format)
	}
	if opt.Out == "" {
		return errors.New("no output given")
	}
	if (opt.RevertRate > 0 || opt.BotRate > 0) && opt.Format != FormatMediaWiki {
		return fmt.Errorf("injected reverts and bot edits need MediaWiki output (they are revisions with a <sha1> and a user name), not %s", opt.Format)
	}
	if opt.Out == "-" && opt.Format == FormatParquet {
		return errors.New("parquet output needs a directory, not -")
	}
	switch opt.GzipImpl {
	case "", "pgzip", "gzip": // newGzip's
	default:
		return fmt.Errorf("gzip implementation %q: want pgzip or gzip", opt.GzipImpl)
	}
	return nil
}

// Run generates the corpus of opt. Files appear atomically: they are
// written under temporary names and renamed when complete, and removed on
// error.
func Run(opt Options) (*Summary, error) {
	t0 := time.Now()
	if err := opt.Check(); err != nil {
		return nil, err
	}
	g, err := NewGenerator(opt.Config)
	if err != nil {
		return nil, err
	}
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	truthPath := opt.Truth
	if truthPath == "" {
		truthPath = DefaultTruthPath(opt.Format, opt.Out)
	}
	if truthPath != "" && opt.Out != "-" && filepath.Clean(truthPath) == filepath.Clean(opt.Out) {
		return nil, fmt.Errorf("truth %s: the same path as the output", truthPath)
	}
	if opt.Format == FormatMediaWiki && opt.Out != "-" {
		// A dump is a file of its own: its lock keeps other revisit
		// writers off it and off every output that contains it (a yelp
		// or parquet directory takes its lock in atomicdir.Create).
		release, err := atomicdir.Lock(opt.Out, "output")
		if err != nil {
			return nil, err
		}
		defer release()
	}
	if err := checkOutputs(opt.Format, opt.Out, truthPath); err != nil {
		return nil, err
	}
	var outputPath string
	if truthPath != "" {
		if outputPath, err = relOutput(truthPath, opt.Out); err != nil {
			return nil, fmt.Errorf("output %s: %w", opt.Out, err)
		}
	}
	// outer are files of their own (a dump, a truth file outside the
	// output directory), inner the files inside the temporary directory
	// of a yelp or parquet output (dirOut, dw), which appears as a whole
	// when they are done.
	var outer, inner []*atomicFile
	var dirOut *atomicdir.Dir
	var dw *dataset.Writer
	abort := func() {
		files := append(inner, outer...)
		for _, f := range files {
			f.abort()
		}
		for _, f := range files { // once no file of ours is left in them
			f.undo()
		}
		inner, outer = nil, nil
		if dirOut != nil {
			dirOut.Abort()
			dirOut = nil
		}
		if dw != nil {
			dw.Abort()
			dw = nil
		}
	}
	var tmpDir string // where the files inside the output directory go now
	switch {
	case opt.Format == FormatYelp && opt.Out != "-":
		ctx := opt.Context
		if ctx == nil {
			ctx = context.Background()
		}
		if dirOut, err = atomicdir.CreateContext(ctx, opt.Out, "", "yelp output"); err != nil {
			return nil, asNotOurs(err)
		}
		tmpDir = dirOut.Path()
	case opt.Format == FormatParquet:
		if dw, err = dataset.Create(opt.Out); err != nil {
			return nil, asNotOurs(err)
		}
		tmpDir = dw.TempDir()
	}
	open := func(path string) (*atomicFile, error) {
		list := &outer
		if tmpDir != "" && filepath.Clean(filepath.Dir(path)) == filepath.Clean(opt.Out) {
			path, list = filepath.Join(tmpDir, filepath.Base(path)), &inner
		}
		f, err := createAtomic(path)
		if err != nil {
			return nil, err
		}
		*list = append(*list, f)
		return f, nil
	}

	var tw *truthWriter
	if truthPath != "" {
		f, err := open(truthPath)
		if err != nil {
			abort()
			return nil, err
		}
		if tw, err = newTruthWriter(f.w, truthHeader(&opt, outputPath)); err != nil {
			abort()
			return nil, err
		}
	}

	var main io.Writer // uncompressed stream of the main output
	var mainFile *atomicFile
	var closers []func() error
	if opt.Format != FormatParquet {
		var raw io.Writer
		name := opt.Out
		if opt.Format == FormatYelp && opt.Out != "-" {
			name = filepath.Join(opt.Out, YelpReviewFile)
		}
		gz := opt.Gzip
		if opt.Out == "-" {
			raw = opt.Stdout
		} else {
			f, err := open(name)
			if err != nil {
				abort()
				return nil, err
			}
			gz = strings.HasSuffix(name, ".gz")
			if opt.Format == FormatMediaWiki {
				mainFile = f
				f.hashed() // the dump's SHA-256, recorded in the truth
			}
			raw = f.w
		}
		main = raw
		if gz {
			zw, err := newGzip(raw, opt.GzipImpl)
			if err != nil {
				abort()
				return nil, err
			}
			main = zw
			closers = append(closers, zw.Close)
		}
		if opt.Out == "-" {
			bw := bufio.NewWriterSize(main, 1<<16)
			main = bw
			closers = append([]func() error{bw.Flush}, closers...)
		}
	}

	sum := &Summary{Out: opt.Out, Truth: truthPath}
	var page Page
	fail := func(err error) (*Summary, error) {
		abort()
		return nil, err
	}
	// nextPage generates page i, unless opt.Context is done (Ctrl-C).
	nextPage := func(i int) error {
		if opt.Context != nil {
			if err := opt.Context.Err(); err != nil {
				return err
			}
		}
		return g.Page(i, &page)
	}
	switch opt.Format {
	case FormatMediaWiki:
		mw, err := newMediaWikiWriter(main, opt.Seed)
		if err != nil {
			return fail(fmt.Errorf("output %s: %w", opt.Out, err))
		}
		for i := 0; i < opt.Pages; i++ {
			if err := nextPage(i); err != nil {
				return fail(err)
			}
			if err := mw.page(&page); err != nil {
				return fail(fmt.Errorf("output %s: %w", opt.Out, err))
			}
			if err := sum.add(g, tw, &page, NamespaceName(page.Namespace), ""); err != nil {
				return fail(err)
			}
			if opt.Progress != nil {
				opt.Progress(i+1, mw.bytes())
			}
		}
		if err := mw.close(); err != nil {
			return fail(fmt.Errorf("output %s: %w", opt.Out, err))
		}
		sum.Bytes = mw.bytes()
	case FormatYelp:
		yw := &yelpWriter{rev: main, seed: opt.Seed}
		if opt.Out != "-" {
			f, err := open(filepath.Join(opt.Out, YelpBusinessFile))
			if err != nil {
				return fail(err)
			}
			yw.biz = f.w
		}
		for i := 0; i < opt.Pages; i++ {
			if err := nextPage(i); err != nil {
				return fail(err)
			}
			yp, err := yw.page(&page)
			if err != nil {
				return fail(fmt.Errorf("output %s: %w", opt.Out, err))
			}
			page.Title, page.Namespace = yp.name, 0 // Yelp has no namespaces
			if err := sum.add(g, tw, &page, yp.city, yp.key); err != nil {
				return fail(err)
			}
			if opt.Progress != nil {
				opt.Progress(i+1, yw.n)
			}
		}
		sum.Bytes = yw.n
	case FormatParquet:
		for i := 0; i < opt.Pages; i++ {
			if err := nextPage(i); err != nil {
				return fail(err)
			}
			sp := series.Page{ID: page.ID, Source: Source, SourceID: strconv.FormatInt(page.ID, 10), Title: page.Title, Namespace: page.Namespace,
				Group: NamespaceName(page.Namespace), Collapsed: page.Collapsed, Resolution: 1, Updates: page.Updates}
			if err := dw.Write(&sp); err != nil {
				return fail(err)
			}
			if err := sum.add(g, tw, &page, sp.Group, ""); err != nil {
				return fail(err)
			}
			if opt.Progress != nil {
				opt.Progress(i+1, 0)
			}
		}
	}
	for _, c := range closers {
		if err := c(); err != nil {
			return fail(fmt.Errorf("output %s: %w", opt.Out, err))
		}
	}
	outSize, outSHA := int64(-1), "" // the dump's, recorded in the truth
	if mainFile != nil {
		var err error
		if outSize, err = mainFile.flush(); err != nil {
			return fail(err)
		}
		outSHA = hex.EncodeToString(mainFile.h.Sum(nil))
	}
	if tw != nil {
		if err := tw.close(outSize, outSHA); err != nil {
			return fail(fmt.Errorf("truth %s: %w", truthPath, err))
		}
	}
	for _, f := range inner {
		if err := f.commit(); err != nil {
			return fail(err)
		}
	}
	if dw != nil {
		err := dw.Close(manifest(&opt, sum)) // aborts on error
		dw = nil
		if err != nil {
			return fail(asNotOurs(err))
		}
	}
	if dirOut != nil {
		err := dirOut.Commit() // removes the temporary directory on error
		dirOut = nil
		if err != nil {
			return fail(fmt.Errorf("output %s: %w", opt.Out, asNotOurs(err)))
		}
	}
	// What the user put at an output path while it was written is theirs:
	// checked again just before the files are renamed into place.
	if err := checkOutputs(opt.Format, opt.Out, truthPath); err != nil {
		return fail(err)
	}
	for _, f := range outer {
		if err := f.commit(); err != nil {
			return fail(err)
		}
	}
	sum.Elapsed = time.Since(t0)
	return sum, nil
}

func (s *Summary) add(g *Generator, tw *truthWriter, p *Page, group, key string) error {
	for _, x := range p.Inject {
		switch x.Kind {
		case InjectVandal:
			s.InjectedReverted++
		case InjectRevert:
			s.InjectedReverts++
		case InjectBot:
			s.InjectedBots++
		}
	}
	s.Pages++
	s.Revisions += int64(len(p.Revisions))
	s.Updates += int64(len(p.Updates))
	s.Collapsed += p.Collapsed
	if tw == nil {
		return nil
	}
	pt := g.pageTruth(p, group)
	pt.Key = key
	return tw.page(&pt)
}

func truthHeader(opt *Options, outputPath string) *Truth {
	src := Source
	switch opt.Format {
	case FormatMediaWiki:
		src = DBName
	case FormatYelp:
		src = "yelp"
	}
	t := &Truth{
		Tool: truthTool, Version: opt.Version, Seed: opt.Seed, Format: opt.Format, Output: filepath.Base(opt.Out), OutputPath: outputPath, Source: src,
		Start: opt.Start.UTC(), End: opt.Start.Add(time.Duration(opt.Span) * time.Second).UTC(), SpanS: opt.Span,
		Unit: opt.UnitName, UnitS: opt.Unit, TalkFraction: opt.TalkFraction, MaxUpdates: opt.MaxUpdates,
		RevertRate: opt.RevertRate, BotRate: opt.BotRate,
	}
	for _, m := range opt.Models {
		t.Models = append(t.Models, TruthMix{Weight: m.Weight, Spec: m.Model.String()})
	}
	return t
}

// manifest is the dataset manifest of Parquet output. Created is the end
// of the generated window, not the wall clock, so the same seed gives the
// same bytes.
func manifest(opt *Options, s *Summary) *dataset.Manifest {
	models := make([]string, len(opt.Models))
	for i, m := range opt.Models {
		models[i] = fmt.Sprintf("%g*%s", m.Weight, m.Model)
	}
	return &dataset.Manifest{
		Tool: "revisit", Version: opt.Version,
		Created: opt.Start.Add(time.Duration(opt.Span) * time.Second).UTC(),
		Inputs:  []dataset.Input{{Name: "revisit generate", Size: -1, Format: "generated"}},
		Counts: dataset.Counts{PagesRead: s.Pages, PagesKept: s.Pages, RevisionsRead: s.Revisions,
			RevisionsKept: s.Revisions, Updates: s.Updates, Collapsed: s.Collapsed},
		Extra: map[string]any{
			"generator": map[string]any{"seed": opt.Seed, "models": models, "start": opt.Start.UTC(),
				"span_s": opt.Span, "unit": opt.UnitName, "talk_fraction": opt.TalkFraction},
		},
	}
}

// newGzip returns the gzip writer at BestSpeed: parallel pgzip by default
// (see bench/generate.sh for the measurements behind the choice).
func newGzip(w io.Writer, impl string) (io.WriteCloser, error) {
	switch impl {
	case "", "pgzip":
		zw, err := pgzip.NewWriterLevel(w, pgzip.BestSpeed)
		if err != nil {
			return nil, err
		}
		if err := zw.SetConcurrency(1<<20, 4); err != nil {
			return nil, err
		}
		return zw, nil
	case "gzip":
		return gzip.NewWriterLevel(w, gzip.BestSpeed)
	}
	return nil, fmt.Errorf("gzip implementation %q: want pgzip or gzip", impl)
}

// atomicFile is a file written under a temporary name in its directory
// and renamed to its final name by commit.
type atomicFile struct {
	f     *os.File
	w     *bufio.Writer
	tmp   string
	final string
	undo  func() // removes the directories made for it, if empty
	h     hash.Hash
}

// hashed makes the file keep the SHA-256 of what is written to it (h);
// call it before the first write.
func (a *atomicFile) hashed() {
	a.h = sha256.New()
	a.w = bufio.NewWriterSize(io.MultiWriter(a.f, a.h), 1<<20)
}

func createAtomic(path string) (*atomicFile, error) {
	return createAtomicIn(filepath.Dir(path), path)
}

// createAtomicIn is createAtomic with the temporary file in dir, which must
// be on the file system of path.
func createAtomicIn(dir, path string) (*atomicFile, error) {
	undo, err := atomicdir.MkdirParents(dir)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		undo()
		return nil, fmt.Errorf("output %s: is a directory", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		undo()
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	return &atomicFile{f: f, w: bufio.NewWriterSize(f, 1<<20), tmp: f.Name(), final: path, undo: undo}, nil
}

// flush writes out the buffer and returns the file's size.
func (a *atomicFile) flush() (int64, error) {
	if err := a.w.Flush(); err != nil {
		return 0, fmt.Errorf("output %s: %w", a.final, err)
	}
	st, err := a.f.Stat()
	if err != nil {
		return 0, fmt.Errorf("output %s: %w", a.final, err)
	}
	return st.Size(), nil
}

func (a *atomicFile) commit() error {
	if err := a.w.Flush(); err != nil {
		a.abort()
		return fmt.Errorf("output %s: %w", a.final, err)
	}
	if err := a.f.Chmod(0o644); err != nil {
		a.abort()
		return fmt.Errorf("output %s: %w", a.final, err)
	}
	if err := a.f.Close(); err != nil {
		os.Remove(a.tmp)
		return fmt.Errorf("output %s: %w", a.final, err)
	}
	if err := os.Rename(a.tmp, a.final); err != nil {
		os.Remove(a.tmp)
		return fmt.Errorf("output %s: %w", a.final, err)
	}
	return nil
}

func (a *atomicFile) abort() {
	a.f.Close()
	os.Remove(a.tmp)
}
