package main

import (
	"regexp"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A flag name means one thing in every command. Where a command used a
// name that means something else in another, its flag was renamed; the
// old spelling is still parsed (hidden) so that refuseRenamed can say
// which flag to write instead, or, where the old value can mean only the
// new flag's, take it (README: Commands, "Renamed flags" lists them).
type renamedFlag struct {
	old, new string
	// meaning is what the old name means in the other commands.
	meaning string
	// accept, if set, takes an old value that is unambiguous (it returns
	// false for a value that must be refused).
	accept func(cmd *cobra.Command, value string) bool
}

var (
	// ingest's --title named the generic log's title column, while run
	// and report take --title as the report's title: 'run … --title 1'
	// after 'ingest … --title 1' titled the report "1".
	renamedTitle = renamedFlag{old: "title", new: "title-column",
		meaning: "the report's title in run and report"}
	// analyze's --min-updates was the Poisson screen's threshold, while
	// ingest and run drop the pages below it.
	renamedScreenUpdates = renamedFlag{old: "min-updates", new: "screen-updates",
		meaning: "the ingest filter in ingest and run (pages with fewer updates are dropped)"}
	// policies' --group chose how pages form sites, while ingest and run
	// take --group as a generic log's group column.
	renamedSites = renamedFlag{old: "group", new: "sites",
		meaning: "a generic log's group column in ingest and run"}
	// generate's --pages was a number of pages, while replay, analyze and
	// run take --pages FILE (a list of pages); a whole number can only
	// be the count.
	renamedPageCount = renamedFlag{old: "pages", new: "page-count",
		meaning: "a FILE listing pages in replay, analyze and run",
		accept: func(cmd *cobra.Command, v string) bool {
			n, err := strconv.Atoi(v)
			return err == nil && cmd.Flags().Set("page-count", strconv.Itoa(n)) == nil
		}}
)

// addRenamed defines r's old spelling on f, hidden from the help.
func addRenamed(f *pflag.FlagSet, r renamedFlag) {
	f.String(r.old, "", "renamed --"+r.new)
	f.MarkHidden(r.old)
}

// refuseRenamed is bad usage when cmd was given the old spelling of one of
// rs that it cannot take, naming the new flag; an old spelling it can take
// (renamedFlag.accept) sets the new flag. Called first, before any other
// check.
func refuseRenamed(cmd *cobra.Command, rs ...renamedFlag) error {
	for _, r := range rs {
		fl := cmd.Flags().Lookup(r.old)
		if fl == nil || !fl.Changed {
			continue
		}
		v := fl.Value.String()
		if r.accept != nil && !cmd.Flags().Changed(r.new) && r.accept(cmd, v) {
			continue
		}
		return usagef("%s: --%s was renamed --%s (--%s is %s): write --%s %s", cmd.Name(), r.old, r.new, r.old, r.meaning, r.new, quoteArg(v))
	}
	return nil
}

// shellWord is what quoteArg leaves unquoted.
var shellWord = regexp.MustCompile(`^[A-Za-z0-9_.,:/%-]+$`)

// quoteArg is v as a shell word: quoted when it holds anything but
// letters, digits and -_.,:/% (or nothing).
func quoteArg(v string) string {
	if shellWord.MatchString(v) {
		return v
	}
	return strconv.Quote(v)
}
