package main

import (
	"github.com/spf13/pflag"

	"github.com/revisit-dev/revisit/dataset"
)

// addSelectFlags defines --pages, --match and --in-group on f: the page
// selection of replay, analyze and run. The group
// flag is not --group: in run that is ingest's group column of generic
// logs, in policies the grouping of sites.
func addSelectFlags(f *pflag.FlagSet, sf *dataset.SelectionFlags) {
	f.StringVar(&sf.Pages, "pages", "", "only the pages listed in `FILE`: one page id (digits only) or exact title per line; blank lines and # comments ignored")
	f.StringVar(&sf.Match, "match", "", "only the pages whose title matches `REGEX` (Go regexp syntax, unanchored: use ^…$ for the whole title)")
	f.StringSliceVar(&sf.InGroups, "in-group", nil, "only the pages whose group column (namespace, wiki, city, site) is one of `VALUES`, comma-separated")
}

// selectHelp is the paragraph of replay's, analyze's and run's help on
// the selection flags.
const selectHelp = `Page selection: --pages FILE (page ids and titles, one per line: a line of
digits only is an id, any other line an exact title; blank lines and lines
starting with # are ignored), --match REGEX (titles, Go regexp syntax) and
--in-group VALUES (the dataset's group column: namespace name, wiki, city,
site) keep only the pages that pass all the criteria given. The selection
is applied first, before --shard, --min-updates and --top; it is recorded
(with the pages it kept, and the listed ids and titles no page has) in the
output and in the report's Source lines, and merge refuses shards selected
differently.`
