package decompress

// The decompressed bytes of a system decoder (xz, 7z) run as a child
// process, with the built-in decoder of the same stream as its fallback.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os/exec"
	"time"
)

// holdBack is how far the delivered bytes stay behind what the system
// decoder wrote until it has exited successfully: at least what the
// built-in decoders can lose before an error — one LZMA2 chunk, 2 MiB of
// output; at a cut, LZMA-alone loses nothing (lzma.go); inside damaged
// LZMA (LZMA-alone, or a 7z member in LZMA, not LZMA2) up to a dictionary,
// so there, with a dictionary larger than holdBack, the system decoder
// keeps more of the bytes before the damage than the built-in decoder
// (TestSystemDecoderLZMADictionaryDamage). When the system decoder
// fails, the built-in one decodes the stream again from its start, and
// what it delivers after the bytes already delivered (which must be the
// same bytes: their CRC-32 is compared) goes on from there, then its own
// error. So a damaged input gives the bytes and the error the built-in
// decoder gives, whichever decoder ran; an intact one the same bytes.
const holdBack = 8 << 20

// extStream reads the standard output of a system decoder through a ring
// buffer that keeps the last holdBack bytes until the decoder has exited
// successfully.
type extStream struct {
	ctx     context.Context
	tool    *tool
	cmd     *exec.Cmd
	out     io.ReadCloser
	stderr  bytes.Buffer
	builtin io.Reader // the built-in decoder of the same stream, not yet read

	ring []byte
	head int // the held bytes are ring[head:head+held], wrapping
	held int
	eof  bool // the decoder's output ended
	ok   bool // and it exited successfully: the held bytes are delivered
	n    int64
	crc  uint32 // of the n bytes delivered

	// check verifies the whole output of a decoder that exited
	// successfully (7z: the member's size and CRC-32); nil for none.
	check func(n int64, crc uint32) error
	// progress is told the number of bytes delivered; nil for none.
	progress func(n int64)

	fellBack bool      // the built-in decoder was run after the system decoder failed
	fb       io.Reader // the built-in decoder, delivering the bytes after fbAt
	fbAt     int64     // the bytes delivered when it took over
	failed   string    // why the system decoder failed
	err      error
	waited   bool
	waitErr  error
}

// startExternal starts t decoding the stream of format (path for 7z,
// stdin for xz) and returns its output as a stream; builtin is the
// built-in decoder of the same stream, used when t fails.
func startExternal(ctx context.Context, t *tool, format, path string, stdin io.Reader, builtin io.Reader) (*extStream, error) {
	cmd := exec.CommandContext(ctx, t.path, t.args(format, path)...)
	cmd.Env = toolEnv()
	cmd.Stdin = stdin
	s := &extStream{ctx: ctx, tool: t, cmd: cmd, builtin: builtin}
	cmd.Stderr = &limitedBuffer{b: &s.stderr, max: 4096}
	cmd.SysProcAttr = childAttr()
	cmd.Cancel = func() error { return killTree(cmd) }
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	widenPipe(out)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", t.path, err)
	}
	s.out = out
	s.ring = make([]byte, holdBack+1<<20)
	return s, nil
}

// label names the decoders that produced the bytes.
func (s *extStream) label() string {
	if s.fellBack {
		return s.tool.label() + ", then " + Builtin
	}
	return s.tool.label()
}

func (s *extStream) Read(p []byte) (int, error) {
	if s.fb != nil {
		return s.fb.Read(p)
	}
	if s.err != nil {
		return 0, s.err
	}
	for !s.eof && s.held <= holdBack {
		s.fill()
	}
	if s.eof && !s.ok {
		if err := s.finish(); err != nil {
			s.err = err
			return 0, err
		}
		if s.fb != nil {
			return s.fb.Read(p)
		}
	}
	avail := s.held
	if !s.ok {
		avail -= holdBack
	}
	if avail <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), avail, len(s.ring)-s.head)
	copy(p, s.ring[s.head:s.head+k])
	s.crc = crc32.Update(s.crc, crc32.IEEETable, p[:k])
	s.n += int64(k)
	s.head = (s.head + k) % len(s.ring)
	s.held -= k
	if s.held == 0 {
		s.head = 0
	}
	if s.progress != nil {
		s.progress(s.n)
	}
	return k, nil
}

// fill reads once from the decoder into the free part of the ring.
func (s *extStream) fill() {
	tail := s.head + s.held
	var free []byte
	if tail < len(s.ring) {
		free = s.ring[tail:]
	} else {
		free = s.ring[tail-len(s.ring) : s.head]
	}
	k, err := s.out.Read(free)
	s.held += k
	if err != nil {
		s.eof = true // io.EOF, or the pipe closed: Wait says how the decoder ended
	}
}

// finish waits for the decoder after its output ended. When it succeeded
// (and its output passes check) the held bytes are delivered; when it
// failed, the stream falls back to the built-in decoder.
func (s *extStream) finish() error {
	err := s.wait()
	if cerr := s.ctx.Err(); cerr != nil {
		return cerr // killed because the read was cancelled: not damage
	}
	if err == nil && s.check != nil {
		crc := s.crc
		a := s.ring[s.head:min(s.head+s.held, len(s.ring))]
		crc = crc32.Update(crc, crc32.IEEETable, a)
		crc = crc32.Update(crc, crc32.IEEETable, s.ring[:s.held-len(a)])
		err = s.check(s.n+int64(s.held), crc)
	}
	if err == nil {
		s.ok = true
		return nil
	}
	s.failed = s.describe(err)
	return s.fallBack()
}

// describe says how the decoder failed: the first line it printed on its
// error stream, else how it exited.
func (s *extStream) describe(err error) string {
	if line, _, _ := bytes.Cut(bytes.TrimSpace(s.stderr.Bytes()), []byte("\n")); len(line) > 0 {
		return string(line)
	}
	return err.Error()
}

// fallBack decodes the stream again with the built-in decoder, skipping
// the bytes already delivered after checking they are the same, and
// delivers the rest from it. It returns an error when the two decoders
// disagree on those bytes, or the built-in one ends before them.
func (s *extStream) fallBack() error {
	s.fellBack, s.ring = true, nil
	buf := make([]byte, 1<<20)
	var crc uint32
	var end error
	for skip := s.n; skip > 0; {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		k, err := s.builtin.Read(buf[:min(int64(len(buf)), skip)])
		crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
		skip -= int64(k)
		if err != nil && skip == 0 {
			end = err // the built-in decoder ends exactly there: its end is next
		}
		if err != nil && skip > 0 {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%s failed (%s) after writing more than the built-in decoder decodes: %d bytes delivered, it ends after %d",
					s.tool.label(), s.failed, s.n, s.n-skip)
			}
			// The built-in decoder loses more before the damage than
			// was held back: its error, at the bytes delivered.
			return fmt.Errorf("%w (%s failed too, %s)", err, s.tool.label(), s.failed)
		}
	}
	if crc != s.crc {
		return fmt.Errorf("%s and the built-in decoder disagree on the first %d decompressed bytes (%s then failed: %s)",
			s.tool.label(), s.n, s.tool.label(), s.failed)
	}
	s.fb, s.fbAt = s.builtin, s.n
	if end != nil {
		s.fb = errReader{end}
	}
	return nil
}

// wait reaps the decoder once and returns how it ended.
func (s *extStream) wait() error {
	if !s.waited {
		s.waited = true
		s.waitErr = s.cmd.Wait()
	}
	return s.waitErr
}

// close kills the decoder if it is still running and reaps it.
func (s *extStream) close() error {
	if !s.waited {
		killTree(s.cmd)
		s.wait()
	}
	return nil
}

// errReader returns its error to every read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
