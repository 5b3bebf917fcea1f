package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotOurs is wrapped by Run's error when an output path holds something
// that revisit generate did not write: Run never replaces it.
var ErrNotOurs = errors.New("exists and was not written by revisit generate")

// checkOutputs refuses, before anything is written, to replace a file or
// fill a directory that an earlier 'revisit generate' did not write. An
// earlier output is recognised by its truth file: revisit's JSON (tool
// "revisit") naming the same output. A parquet dataset directory is
// checked by dataset.Create itself.
func checkOutputs(format, out, truthPath string) error {
	if out == "-" || format == FormatParquet {
		if format == FormatParquet && truthPath != "" && truthPath != filepath.Join(out, TruthFile) {
			return checkFile(truthPath, truthPath, out)
		}
		return nil
	}
	if format == FormatYelp {
		st, err := os.Lstat(out)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("output %s: %w", out, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("output %s: %w and is not a directory", out, ErrNotOurs)
		}
		ents, err := os.ReadDir(out)
		if err != nil {
			return fmt.Errorf("output %s: %w", out, err)
		}
		if len(ents) == 0 {
			return nil
		}
		if !ourTruth(filepath.Join(out, TruthFile), filepath.Base(filepath.Clean(out))) {
			return fmt.Errorf("output %s: the directory is not empty and holds no truth.json of an earlier revisit generate: %w (choose a new or empty directory)", out, ErrNotOurs)
		}
		for _, p := range []string{filepath.Join(out, YelpReviewFile), filepath.Join(out, YelpBusinessFile), truthPath} {
			if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
				return fmt.Errorf("output %s: %w and is not a regular file", p, ErrNotOurs)
			}
		}
		return nil
	}
	for _, p := range []string{out, truthPath} {
		if err := checkFile(p, truthPath, out); err != nil {
			return err
		}
	}
	return nil
}

// checkFile accepts a path that does not exist, or a regular file beside
// the truth file of an earlier generate of out.
func checkFile(p, truthPath, out string) error {
	if p == "" {
		return nil
	}
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", p, err)
	}
	if !st.Mode().IsRegular() || !ourTruth(truthPath, filepath.Base(filepath.Clean(out))) {
		return fmt.Errorf("output %s: %w (it is replaced only when %s is the truth file of an earlier revisit generate of it; choose another -o or remove it)", p, ErrNotOurs, truthPath)
	}
	return nil
}

// ourTruth reports whether path is a regular file that revisit generate
// wrote as the truth of an output with the given base name: a JSON object
// whose "tool" is revisit generate's and whose "output" is outBase. Both
// fields come before "pages", so only the header is read.
func ourTruth(path, outBase string) bool {
	if path == "" {
		return false
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	var tool, output string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		switch k {
		case "tool":
			err = dec.Decode(&tool)
		case "output":
			err = dec.Decode(&output)
		case "pages":
			return false // past the header without both fields
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return false
		}
		if tool != "" && output != "" {
			return tool == truthTool && output == outBase
		}
	}
	return false
}
