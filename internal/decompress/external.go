package decompress

// System decoders: finding XZ Utils' xz and 7-Zip's 7z on PATH, making
// sure they are what their name says, and the command lines that make
// them write a named file's decompressed bytes to standard output.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bodgit/sevenzip"
)

// Builtin is what Reader.Decoder returns when the decompressed bytes come
// from revisit's own (pure Go) decoders.
const Builtin = "builtin"

// Options choose the decoders of an input.
type Options struct {
	// Builtin decodes every format in-process, never starting a system
	// decoder (xz, 7z).
	Builtin bool
}

// Minimum versions of the system decoders: XZ Utils 5.2 (the first with
// --threads in every build), 7-Zip or p7zip 16.02 (the last p7zip, the
// oldest one distributions still ship; -bso/-bsp need 15.x or later).
var (
	minXZ = version{5, 2, "5.2"}
	min7z = version{16, 2, "16.02"}
)

type version struct {
	major, minor int
	text         string
}

// A tool is a system decoder found on PATH and checked: its path, its
// program name and the version it printed.
type tool struct {
	path         string
	name         string // "xz" or "7z"
	version      string
	major, minor int
}

// label names the tool in Decoder, the summary and the manifest.
func (t *tool) label() string { return t.name + " " + t.version }

var (
	xzBanner = regexp.MustCompile(`^xz \(XZ Utils\) (\d+)\.(\d+)(\.\d+)?`)
	szBanner = regexp.MustCompile(`(?m)^7-Zip(?: \([a-z]\))?(?: \[(?:32|64)\])? (\d+)\.(\d+)`)
)

// probeTimeout bounds a version probe: a program that does not answer is
// not the decoder it is named after.
const probeTimeout = 5 * time.Second

// findTool looks for the system decoder of format (XZ, LZMA or SevenZip)
// on PATH. It returns nil and why not when there is none that can be
// used: absent, or a program of that name that is not XZ Utils or 7-Zip,
// or older than the minimum version.
func findTool(format string) (*tool, string) {
	switch format {
	case XZ, LZMA:
		path, err := exec.LookPath("xz")
		if err != nil {
			return nil, "no xz on PATH"
		}
		out := probe(path, "--version")
		m := xzBanner.FindSubmatch(out)
		if m == nil {
			return nil, fmt.Sprintf("%s is not XZ Utils' xz (its --version says %s)", path, firstLine(out))
		}
		return versionAtLeast(&tool{path: path, name: "xz"}, m, minXZ, "XZ Utils")
	case SevenZip:
		why := "no 7zz, 7z or 7za on PATH"
		for _, name := range []string{"7zz", "7z", "7za"} {
			path, err := exec.LookPath(name)
			if err != nil {
				continue
			}
			// Without arguments 7-Zip prints its banner and usage.
			out := probe(path)
			m := szBanner.FindSubmatch(out)
			if m == nil {
				why = fmt.Sprintf("%s is not 7-Zip (it prints %s)", path, firstLine(out))
				continue
			}
			t, w := versionAtLeast(&tool{path: path, name: "7z"}, m, min7z, "7-Zip")
			if t != nil {
				return t, ""
			}
			why = w
		}
		return nil, why
	}
	return nil, "no system decoder for " + format
}

// versionAtLeast completes t with the version matched in m (major, minor,
// optional ".patch") when it is at least min.
func versionAtLeast(t *tool, m [][]byte, min version, what string) (*tool, string) {
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	t.major, t.minor = major, minor
	t.version = string(m[1]) + "." + string(m[2])
	if len(m) > 3 {
		t.version += string(m[3])
	}
	if major < min.major || major == min.major && minor < min.minor {
		return nil, fmt.Sprintf("%s is %s %s, older than %s", t.path, what, t.version, min.text)
	}
	return t, ""
}

// probe runs path with args and returns the start of what it printed on
// either stream (nothing when it cannot run or does not end in time).
func probe(path string, args ...string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = toolEnv()
	var out bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &out, max: 4096}
	cmd.Stderr = cmd.Stdout
	cmd.SysProcAttr = childAttr()
	cmd.WaitDelay = time.Second
	cmd.Run() // 7-Zip without arguments may exit non-zero: the banner decides
	return out.Bytes()
}

// toolEnv is the environment of a system decoder: messages in English
// (they tell a cut stream from a corrupt one), and none of xz's option
// variables, which could change what it accepts (--ignore-check,
// --single-stream, another --format).
func toolEnv() []string {
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "XZ_OPT" || k == "XZ_DEFAULTS" || k == "LC_ALL" || k == "LANG" || k == "LANGUAGE" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

// xzThreadsMemory bounds the memory of xz's threaded decoder (XZ Utils
// 5.4 and later): it decodes the blocks of a multi-block file in parallel,
// each thread holding a block's output, and uses fewer threads when they
// would need more than this. Decoding one block at a time needs its
// dictionary, which is not bounded, as for the built-in decoder.
const xzThreadsMemory = "128MiB"

// args is the command line that writes the decompressed bytes of a
// stream of format on standard output: xz reads the stored bytes from
// standard input, 7z the archive at path (it needs to seek). xz decodes
// with as many threads as cores (-T0, as `xz -dc -T0`) within
// xzThreadsMemory; the stream's own checks are verified by the tool.
func (t *tool) args(format, path string) []string {
	switch format {
	case XZ:
		if t.major > 5 || t.major == 5 && t.minor >= 4 {
			return []string{"--decompress", "--stdout", "--threads=0", "--memlimit-mt-decompress=" + xzThreadsMemory}
		}
		return []string{"--decompress", "--stdout"}
	case LZMA:
		return []string{"--format=lzma", "--decompress", "--stdout"}
	default: // 7z: an archive of one file, extracted to standard output
		// A password is given so that an encrypted archive fails at
		// once instead of asking for one; -bso0 -bsp0: no messages or
		// progress among the data.
		return []string{"x", "-so", "-bd", "-bso0", "-bsp0", "-y", "-p-", "--", path}
	}
}

// firstLine is the first line of a program's output, quoted and cut
// short, for messages.
func firstLine(out []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(out), []byte("\n"))
	if len(line) > 80 {
		line = line[:80]
	}
	return strconv.Quote(string(line))
}

// limitedBuffer keeps the first max bytes written to it and discards the
// rest, so a tool that prints without end cannot fill the memory.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// tool returns the system decoder of format when one may decode this
// input, else nil, with r.decoder saying why not. file tells whether the
// stored bytes are in a file the built-in decoder can read again.
func (r *Reader) tool(format string, file bool) *tool {
	if r.opt.Builtin {
		return nil
	}
	if !file {
		r.decoder = Builtin + " (standard input: a system decoder needs a file the built-in decoder can read again)"
		return nil
	}
	t, why := findTool(format)
	if t == nil {
		r.decoder = Builtin + " (" + why + ")"
	}
	return t
}

// startTool starts the system decoder of an xz or LZMA-alone file, its
// stored bytes read from br, with the built-in decoder of the same file
// (read again from its start) as its fallback. It returns false when no
// system decoder can run, or when the built-in decoder cannot start
// (damage at the start of the file): the built-in decoder then reads br,
// and reports that damage as it does without a system decoder.
func (r *Reader) startTool(br *bufio.Reader) bool {
	t := r.tool(r.format, r.file != nil && r.size >= 0)
	if t == nil {
		return false
	}
	sr := io.NewSectionReader(r.file, 0, r.size)
	fbr := bufio.NewReaderSize(sr, bufSize)
	builtin, err := r.builtinLZMA(fbr, func() error {
		return trailingAfter(fbr, func() int64 { n, _ := sr.Seek(0, io.SeekCurrent); return n })
	})
	if err != nil {
		return false
	}
	s, err := startExternal(r.ctx, t, r.format, "", br, builtin)
	if err != nil {
		r.decoder = Builtin + " (" + err.Error() + ")"
		return false
	}
	r.ext, r.stream = s, s
	return true
}

// sevenZipTool returns the system decoder that can extract the 7z
// archive z at path, or nil (r.decoder says why): 7z writes every member
// to standard output as one stream, so only an archive holding one file
// (and directories) is given to it; a path with a wildcard character
// would be expanded by 7z.
func (r *Reader) sevenZipTool(z *sevenzip.Reader, path string) *tool {
	files := 0
	for _, f := range z.File {
		if !f.FileInfo().IsDir() {
			files++
		}
	}
	switch {
	case r.opt.Builtin:
		return nil
	case files != 1:
		r.decoder = Builtin + fmt.Sprintf(" (a 7z archive of %d members: 7z would write them as one stream)", files)
		return nil
	case strings.ContainsAny(path, "*?"):
		r.decoder = Builtin + " (the path holds a wildcard character, which 7z would expand)"
		return nil
	}
	return r.tool(SevenZip, true)
}

// start7zMember starts the system decoder on the only file of the 7z
// archive, whose header is f and whose built-in decoder is rc; it
// returns rc when the decoder cannot start.
func (r *Reader) start7zMember(f *sevenzip.File, rc io.Reader) io.Reader {
	s, err := startExternal(r.ctx, r.szTool, SevenZip, r.szPath, nil, rc)
	if err != nil {
		r.decoder = Builtin + " (" + err.Error() + ")"
		return rc
	}
	size, sum := int64(f.UncompressedSize), f.CRC32
	s.check = func(n int64, crc uint32) error {
		if n != size {
			return fmt.Errorf("%s wrote %d bytes, the archive's header says %d", r.szTool.label(), n, size)
		}
		if sum != 0 && crc != sum {
			return fmt.Errorf("%s wrote bytes of CRC-32 %08x, the archive's header says %08x", r.szTool.label(), crc, sum)
		}
		return nil
	}
	// The stored bytes 7z has read are not seen: the progress shown is
	// the share of the member decompressed.
	stored := float64(r.size)
	s.progress = func(n int64) {
		if size > 0 {
			r.src.n.Store(int64(stored * float64(n) / float64(size)))
		}
	}
	r.ext = s
	return s
}
