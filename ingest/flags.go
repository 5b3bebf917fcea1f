package ingest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// ParseFlags reads what a command line (revisit ingest, revisit run) gave
// as text into the Options it stands for (NamespacesText, SinceText,
// UntilText, TimeOriginText), reads --bot-list into BotNames, and refuses
// the flags that cannot work together or whose values a command line
// cannot mean (0 is the library's default of the caps, a mistake on the
// command line). Its errors are bad usage (*usage.Error) naming command
// and the flag; Check's come after, when the inputs and output are known.
func (o *CommandOptions) ParseFlags(command string) error {
	given := o.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	if o.AllNamespaces && given("namespaces") {
		return usage.Errorf("%s: --namespaces and --all-namespaces exclude each other", command)
	}
	if o.NamespacesText != "" || given("namespaces") {
		ns, err := parseNamespaces(o.NamespacesText)
		if err != nil {
			return usage.Errorf("%s: --namespaces: %v", command, err)
		}
		o.Namespaces = ns
	}
	var err error
	if o.Since, err = units.ParseBound(o.SinceText); err != nil {
		return usage.Errorf("%s: --since: %v", command, err)
	}
	if o.Until, err = units.ParseBound(o.UntilText); err != nil {
		return usage.Errorf("%s: --until: %v", command, err)
	}
	if o.Generic.TimeOrigin, err = units.ParseBound(o.TimeOriginText); err != nil {
		return usage.Errorf("%s: --time-origin: %v", command, err)
	}
	switch l := o.Generic.TimeLayout; {
	case o.Generic.TimeOrigin.IsZero(), l == "", l == "auto", l == "epoch", l == "epochms":
	default:
		return usage.Errorf("%s: --time-origin places numeric times: --time-layout %s is not numeric (want auto, epoch or epochms)", command, l)
	}
	if err := o.parseRevisionFlags(command, given); err != nil {
		return err
	}
	if o.MaxRevisionsPerPage < 1 || o.MaxLineBytes < 1 {
		return usage.Errorf("%s: --max-revisions-per-page and --max-line-bytes must be at least 1", command)
	}
	return nil
}

// parseRevisionFlags checks the revision filter flags (what counts as an
// update on a wiki) and reads --bot-list, which implies --drop-bots.
func (o *Options) parseRevisionFlags(command string, given func(string) bool) error {
	if (given("bot-pattern") || given("no-bot-pattern")) && !o.DropBots && o.BotList == "" {
		return usage.Errorf("%s: --bot-pattern and --no-bot-pattern need --drop-bots", command)
	}
	if given("bot-pattern") && o.NoBotPattern {
		return usage.Errorf("%s: --bot-pattern and --no-bot-pattern exclude each other", command)
	}
	if given("revert-radius") && !o.DropReverts {
		return usage.Errorf("%s: --revert-radius needs --drop-reverts", command)
	}
	if o.RevertRadius < 1 {
		return usage.Errorf("%s: --revert-radius must be at least 1", command)
	}
	if o.BotList != "" {
		b, err := os.ReadFile(o.BotList)
		if err != nil {
			return usage.Errorf("%s: --bot-list: %v", command, err)
		}
		o.DropBots = true
		o.BotNames = ParseBotList(b)
	}
	return nil
}

// parseNamespaces reads "0,1,-2".
func parseNamespaces(s string) ([]int32, error) {
	var ns []int32
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a namespace number", f)
		}
		ns = append(ns, int32(n))
	}
	if len(ns) == 0 {
		return nil, errors.New("no namespace given")
	}
	return ns, nil
}
