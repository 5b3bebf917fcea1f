package dataset

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Manifest is manifest.json: what a dataset was made from and what was
// kept, filtered and skipped on the way (SPEC §2). Nothing is dropped
// silently: every filter and skip has a count here.
type Manifest struct {
	Tool    string    `json:"tool"`    // "revisit"
	Version string    `json:"version"` // tool version
	Created time.Time `json:"created"`
	Inputs  []Input   `json:"inputs"`
	Filters Filters   `json:"filters"`
	Counts  Counts    `json:"counts"`
	// Parts is the number of part files (dataset.PartFile) the pages are
	// written in, partitioned by SplitMix64(page id) mod Parts (the rule
	// of --shard); absent for the one file pages.parquet.
	Parts int `json:"parts,omitempty"`
	// PartPages describes each part file, in part order: its pages and
	// the range of their time resolutions. Written by CreateParts'
	// Close; with it a shard reads only its own parts while numbering
	// pages as in the whole dataset (Reader.ForShard). Absent for the one
	// file pages.parquet and in datasets written before it existed.
	PartPages []PartStat `json:"part_pages,omitempty"`
	// Extra holds producer-specific facts (the generator's seed and models, …).
	Extra map[string]any `json:"extra,omitempty"`
}

// PartStat is one part file of Manifest.PartPages.
type PartStat struct {
	Pages int64 `json:"pages"`
	// MinResolution and MaxResolution are the smallest and largest
	// series.Page.Resolution of its pages (0 for an empty part).
	MinResolution int32 `json:"min_resolution"`
	MaxResolution int32 `json:"max_resolution"`
	// Bytes and SHA256 are the part file's size and the SHA-256 of its
	// bytes, as written: a shard reading only its own parts checks
	// them (Reader.ForShard), and Identity counts a part that is not
	// there by them. Absent in manifests written before they were
	// recorded.
	Bytes  int64  `json:"bytes,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// Input describes one input file.
type Input struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`   // bytes as stored (compressed); -1 for a stream of unknown size
	SHA256 string `json:"sha256"` // of the stored bytes
	Format string `json:"format"` // e.g. "mediawiki+bzip2", "yelp-review+gzip", "csv"
	// Decoder names what decompressed the input: "builtin" (revisit's own
	// decoders, with the reason in brackets when the system's xz or 7z
	// was not used), or the system decoder and its version ("xz 5.4.1",
	// "7z 25.01", followed by ", then builtin" when it failed and the
	// built-in decoder took over). Empty for an uncompressed input.
	Decoder string `json:"decoder,omitempty"`
	// Bad counts the bad records skipped in this input (--skip-bad) by
	// reason ("corrupt", "timestamp", …); their sum over inputs is in
	// Counts.Skipped as "bad_<reason>" (with the duplicate pages found
	// after the last input).
	Bad map[string]int64 `json:"bad,omitempty"`
	// SkipLines counts the lines skipped before a generic log's header
	// (--skip-lines, or INPUT:skip=N for this input alone).
	SkipLines int64 `json:"skip_lines,omitempty"`
}

// Filters are the ingest filters in force.
type Filters struct {
	Namespaces  []int32    `json:"namespaces,omitempty"` // empty: all
	MinUpdates  int        `json:"min_updates"`
	Since       *time.Time `json:"since,omitempty"`
	Until       *time.Time `json:"until,omitempty"`
	NoRedirects bool       `json:"no_redirects"`
	SkipBad     bool       `json:"skip_bad"`
	// NotApplicable names the filters above (and the revision filters)
	// that had nothing to act on because no input has what they test:
	// "namespaces", "no_redirects" and "revision_filters" apply to
	// MediaWiki XML and mediawiki_history inputs only, so a dataset of
	// Yelp or generic logs lists them. Empty in manifests written before
	// it existed.
	NotApplicable []string `json:"not_applicable,omitempty"`
}

// Counts are the ingest counts.
type Counts struct {
	PagesRead     int64 `json:"pages_read"`
	PagesKept     int64 `json:"pages_kept"`
	RevisionsRead int64 `json:"revisions_read"`
	RevisionsKept int64 `json:"revisions_kept"` // revisions of kept pages inside the time range, before collapsing
	Updates       int64 `json:"updates"`        // after collapsing revisions at the same time (second, or day for date-only sources)
	Collapsed     int64 `json:"collapsed"`
	// PagesDaily counts the kept pages whose time resolution is a day or
	// coarser (date-only sources: Yelp tips, YYYY-MM-DD logs), and
	// CollapsedSameDay the revisions of Collapsed in them: there,
	// revisions of the same day are one update.
	PagesDaily       int64 `json:"pages_kept_daily,omitempty"`
	CollapsedSameDay int64 `json:"collapsed_same_day,omitempty"`
	// Skipped counts pages or records left out, by reason
	// ("namespace", "min_updates", "redirect", "time_range", "bad_record", …).
	Skipped map[string]int64 `json:"skipped,omitempty"`
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("dataset %s: %s: %w", dir, ManifestFile, err)
	}
	return &m, nil
}

func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644)
}
