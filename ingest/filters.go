package ingest

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Filters that apply to some sources only. --namespaces, --no-redirects
// and the revision filters (--drop-reverts, --drop-bots, --drop-minor)
// test what only MediaWiki XML and mediawiki_history inputs carry; on a
// dataset of Yelp or generic logs they act on nothing, and saying
// "MediaWiki namespaces [0] … redirects kept" of a git history misleads.
// The manifest names them in filters.not_applicable, the summary says
// when one was asked for in vain, and FilterNotes leaves them out.

// Names of the wiki-only filters in dataset.Filters.NotApplicable.
const (
	filterNamespaces      = "namespaces"
	filterNoRedirects     = "no_redirects"
	filterRevisionFilters = "revision_filters"
)

var wikiOnlyFilters = []string{filterNamespaces, filterNoRedirects, filterRevisionFilters}

// applies reports whether the named filter had something to act on.
func (s *Summary) applies(name string) bool { return !slices.Contains(s.Filters.NotApplicable, name) }

// FilterNotes are the filters in force, in words, for the report's ingest
// table: only those that apply to the sources read (see above).
func (s *Summary) FilterNotes() []string {
	f := s.Filters
	var parts []string
	if s.applies(filterNamespaces) {
		ns := "all namespaces"
		if len(f.Namespaces) > 0 {
			ns = fmt.Sprint(f.Namespaces)
		}
		parts = append(parts, "MediaWiki namespaces "+ns)
	}
	parts = append(parts, fmt.Sprintf("at least %d updates per page", f.MinUpdates))
	if s.applies(filterNoRedirects) {
		parts = append(parts, "redirects "+map[bool]string{true: "dropped", false: "kept"}[f.NoRedirects])
	}
	parts = append(parts, "bad records "+map[bool]string{true: "counted and skipped (--skip-bad)", false: "fatal"}[f.SkipBad])
	notes := []string{"filters: " + strings.Join(parts, "; ")}
	if r := s.RevisionFilters; len(r.Order) > 0 && s.applies(filterRevisionFilters) {
		notes = append(notes, fmt.Sprintf("what counts as an update: identity reverts and the revisions they undo %s; bot edits %s; minor edits %s",
			map[bool]string{true: "left out", false: "kept"}[r.DropReverts], map[bool]string{true: "left out", false: "kept"}[r.DropBots],
			map[bool]string{true: "left out", false: "kept"}[r.DropMinor]))
	}
	if f.Since != nil || f.Until != nil {
		from, to := "the start", "the end"
		if f.Since != nil {
			from = f.Since.Format(time.RFC3339)
		}
		if f.Until != nil {
			to = f.Until.Format(time.RFC3339)
		}
		notes = append(notes, fmt.Sprintf("time range: revisions in [%s, %s) kept", from, to))
	}
	return notes
}

// unusedFlags names the wiki-only flags given (other than their defaults)
// that had nothing to act on ("--no-redirects, --drop-bots").
func (s *Summary) unusedFlags() string {
	var flags []string
	f := s.Filters
	if !s.applies(filterNamespaces) && !slices.Equal(f.Namespaces, DefaultNamespaces) {
		if len(f.Namespaces) == 0 {
			flags = append(flags, "--all-namespaces")
		} else {
			flags = append(flags, "--namespaces")
		}
	}
	if !s.applies(filterNoRedirects) && f.NoRedirects {
		flags = append(flags, "--no-redirects")
	}
	if !s.applies(filterRevisionFilters) {
		if fl := s.revisionFlags(); fl != "" {
			flags = append(flags, fl)
		}
	}
	return strings.Join(flags, ", ")
}
