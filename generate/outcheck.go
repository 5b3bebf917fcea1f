package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/revisit-dev/revisit/internal/atomicdir"
)

// ErrNotOurs is wrapped by Run's error when an output path holds something
// that revisit generate did not write: Run never replaces it. Such errors
// are *atomicdir.RefusedError too.
var ErrNotOurs = errors.New("exists and was not written by revisit generate")

// notOurs is a refusal that is both an *atomicdir.RefusedError and
// ErrNotOurs.
type notOurs struct{ *atomicdir.RefusedError }

func (e notOurs) Unwrap() []error { return []error{e.RefusedError, ErrNotOurs} }

func refuse(path, what, reason string) error {
	return notOurs{&atomicdir.RefusedError{Path: path, What: what, Reason: reason}}
}

// asNotOurs marks a refusal of atomicdir (a directory output) as
// ErrNotOurs; other errors pass unchanged.
func asNotOurs(err error) error {
	var re *atomicdir.RefusedError
	if errors.As(err, &re) {
		return notOurs{re}
	}
	return err
}

// checkOutputs refuses, before anything is written, to replace a path
// that an earlier 'revisit generate' did not write. The two files of one
// output are tied together by the truth file, which records the output's
// path relative to itself (output_path) and, for a dump file, the dump's
// size (output_size):
//
//   - a truth file (other than one inside a directory output) is replaced
//     only when it is revisit generate's ("tool" exactly so spelled) and
//     names this same output;
//   - a dump file only when such a truth file is at truthPath and its
//     recorded size is the dump's size;
//   - a yelp or parquet directory only when atomicdir.CheckReplaceable
//     accepts it (every entry in it is one revisit wrote).
//
// Truth files of earlier revisit versions (no output_path) are refused,
// with a message saying so.
func checkOutputs(format, out, truthPath string) error {
	if truthPath != "" && !truthInside(format, out, truthPath) {
		if _, err := checkTruth(truthPath, out); err != nil {
			return err
		}
	}
	switch {
	case out == "-":
		return nil
	case format == FormatMediaWiki:
		return checkDump(out, truthPath)
	case format == FormatYelp:
		return asNotOurs(atomicdir.CheckReplaceable(out, "", "yelp output"))
	}
	return nil // parquet: dataset.Create checks it
}

// truthInside reports whether the truth file is written inside the output
// directory (yelp, parquet), which atomicdir checks as a whole.
func truthInside(format, out, truthPath string) bool {
	return format != FormatMediaWiki && out != "-" &&
		filepath.Clean(filepath.Dir(truthPath)) == filepath.Clean(out)
}

// checkTruth accepts a truth path that does not exist, or a regular file
// that revisit generate wrote as the truth of out; for the latter it
// returns its head (outputSize -1 when the truth records none; nil for
// no truth file).
func checkTruth(truthPath, out string) (*truthHead, error) {
	st, err := os.Lstat(truthPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("truth %s: %w", truthPath, err)
	}
	if !st.Mode().IsRegular() {
		return nil, refuse(truthPath, "truth file", "exists and is not a regular file; refusing to replace it (choose another --truth)")
	}
	h, err := readTruthHead(truthPath)
	if err != nil {
		return nil, err
	}
	if h.tool != truthTool {
		return nil, refuse(truthPath, "truth file", "exists and is not a truth file of revisit generate; refusing to replace it (choose another --truth, or remove it)")
	}
	if !h.hasPath {
		return nil, refuse(truthPath, "truth file", fmt.Sprintf("was written by an earlier revisit version, which did not record the path of its output, so revisit cannot tell which output it belongs to; refusing to replace it or its output: remove them by hand (rm %s and its output) or choose other paths", truthPath))
	}
	if !sameOutput(truthPath, h.outputPath, out) {
		return nil, refuse(truthPath, "truth file", fmt.Sprintf("is the truth of another output (%s); refusing to replace it (choose another --truth)", h.outputPath))
	}
	return h, nil
}

// sameOutput reports whether outputPath, as recorded in the truth file at
// truthPath (relative to its directory, or "-"), is out.
func sameOutput(truthPath, outputPath, out string) bool {
	if outputPath == "-" || out == "-" {
		return outputPath == out
	}
	dir, err1 := filepath.Abs(filepath.Dir(truthPath))
	abs, err2 := filepath.Abs(out)
	return err1 == nil && err2 == nil && filepath.Join(dir, filepath.FromSlash(outputPath)) == abs
}

// relOutput is out as the truth file at truthPath records it.
func relOutput(truthPath, out string) (string, error) {
	if out == "-" {
		return "-", nil
	}
	dir, err := filepath.Abs(filepath.Dir(truthPath))
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// checkDump accepts a dump path that does not exist, or a regular file
// whose truth file at truthPath (revisit's, naming it) records its size
// and the SHA-256 of its content (the file is read to compare it: a
// same-size edit of the dump makes it the user's).
func checkDump(out, truthPath string) error {
	st, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	why := fmt.Sprintf("exists and is not a dump revisit generate wrote (it is replaced only when %s is the truth file of an earlier generate of it and records its size); refusing to replace it (choose another -o or remove it)", truthPath)
	if !st.Mode().IsRegular() {
		return refuse(out, "output", why)
	}
	if _, err := os.Lstat(truthPath); err != nil {
		return refuse(out, "output", why)
	}
	h, err := checkTruth(truthPath, out)
	if err != nil {
		return err
	}
	if h == nil || h.outputSize != st.Size() {
		return refuse(out, "output", why)
	}
	if h.outputSHA == "" {
		return refuse(out, "output", fmt.Sprintf("was written by an earlier revisit version, whose truth file %s records its size but not its content, so a change of yours that kept the size cannot be told; refusing to replace it: remove it by hand (rm %s %s) or choose another -o", truthPath, out, truthPath))
	}
	sum, err := atomicdir.HashFile(out)
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if sum != h.outputSHA {
		return refuse(out, "output", fmt.Sprintf("was changed since revisit generate wrote it (its content is not what %s records); refusing to replace it (choose another -o, or remove it)", truthPath))
	}
	return nil
}

// truthHead is what checkTruth reads of a truth file.
type truthHead struct {
	tool, outputPath string
	hasPath          bool
	outputSize       int64  // -1: none recorded
	outputSHA        string // "": none recorded (earlier versions)
}

// readTruthHead reads the header of a truth file (the fields before
// "pages", keys matched exactly) and its last field, output_size, from
// the end of the file: a truth file may be large, and only its two ends
// are read. A file that is not a JSON object gives an empty head.
func readTruthHead(path string) (*truthHead, error) {
	h := &truthHead{outputSize: -1}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("truth %s: %w", path, err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return h, nil
	}
	head := truthHead{outputSize: -1}
header:
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return h, nil
		}
		switch k {
		case "tool":
			err = dec.Decode(&head.tool)
		case "output_path":
			err = dec.Decode(&head.outputPath)
			head.hasPath = err == nil
		case "pages":
			break header
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return h, nil
		}
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("truth %s: %w", path, err)
	}
	const tailLen = 256
	off := max(0, st.Size()-tailLen)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("truth %s: %w", path, err)
	}
	if m := sizeTail.FindSubmatch(b); m != nil {
		if n, err := strconv.ParseInt(string(m[2]), 10, 64); err == nil {
			head.outputSize, head.outputSHA = n, string(m[1])
		}
	}
	return &head, nil
}

// sizeTail is how truthWriter.close ends a truth with an output's hash
// (absent in truths of earlier versions) and size.
var sizeTail = regexp.MustCompile(`(?:\n  "output_sha256": "([0-9a-f]{64})",)?\n  "output_size": ([0-9]+)\n}\n$`)
