package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/pipeline"
)

func newIngestCmd(g *globals) *cobra.Command {
	var opt ingest.CommandOptions
	cmd := &cobra.Command{
		Use:   "ingest [flags] INPUT... -o DATASET_DIR",
		Short: "Stream dumps and update logs (MediaWiki XML, Yelp JSON, CSV/JSON) into a Parquet dataset",
		Long: `ingest reads edit histories and writes a dataset (README: Data formats): pages.parquet
(one row per page with its sorted, unique update times) and manifest.json
(inputs with size and SHA-256, filters, counts, everything skipped by reason).

INPUTS are files or - for standard input; several may be given (dumps come in
parts; --jobs K reads K of them at once, each in its own process, and joins
the datasets: for inputs with different pages, such as the parts of one dump). Compression is detected from the magic bytes: gzip, bzip2 (decoded in
parallel), zstd, xz, LZMA-alone (.lzma), 7z, or none; tar archives (.tar,
.tgz, .tar.gz) are read member by member. The content is detected too:
  MediaWiki XML export (schema 0.3–0.11, stub-meta-history or
    pages-meta-history; revision text is skipped, never kept);
  Yelp review/tip/checkin JSON lines, old and new formats (give
    yelp_academic_dataset_business.json too to title businesses by name and
    group them by city; without it titles are business ids, and the
    summary says so);
  any other CSV/TSV/JSON-lines log when --id and --time say where the object
    id and the timestamp are (--format forces it). --id takes several
    columns separated by commas (--id language,article): the object is then
    the tuple of their values (en/X and de/X are two objects), titled by the
    values joined by "/" ("en/X"). --title-column names a
    column holding the object's title: its first non-empty value per object
    is kept (records with another value later are counted in the summary).
    Columns are names or 0-based indexes (JSON arrays need indexes).

Filters, applied in this order and each counted: --namespaces (MediaWiki
only; default 0 = articles), --no-redirects, the revision filters
(--drop-reverts, --drop-bots, --drop-minor; MediaWiki XML and
mediawiki_history only), --since/--until (revisions outside [since, until)
are dropped), then revisions in the same second (the same day in date-only
sources such as Yelp tips) are collapsed into one update, then --min-updates.

What counts as an update on a wiki: --drop-reverts leaves out identity
reverts and the revisions they undo: in XML dumps a revision whose <sha1>
equals that of one of the 16 revisions before it (--revert-radius + 1:
at most 15 revisions in between, the mwreverts definition) with at least
one revision in between, which are the reverted ones; in mediawiki_history dumps the revisions it marks
revision_is_identity_revert or revision_is_identity_reverted. --drop-bots
leaves out revisions by registered users whose name matches --bot-pattern
(default: "bot" ending a word, in any case, as Wikipedia's bot policy asks
bot accounts to be named) or is listed in --bot-list FILE (one name per
line; --no-bot-pattern uses the list alone); in mediawiki_history dumps
also users Wikimedia classifies as bots (event_user_is_bot_by_historical
or event_user_is_bot_by). IP editors are never bots. The summary and the
manifest count the bot revisions by the first rule that applies:
Wikimedia's columns, then --bot-list, then the name pattern. --drop-minor leaves out revisions marked minor. A
revision left out is counted once, under the first of revert, reverted,
bot, minor.

Bad input (a truncated or corrupt stream, malformed XML or JSON, a timestamp
that does not parse or lies beyond what Parquet stores, a page without
revisions, a page with more than --max-revisions-per-page revisions, a line
or CSV record longer than --max-line-bytes) stops with an error naming
the file, the byte offset (of the decompressed stream for a compressed
file) or line, and the page; exit code 1, and nothing is left at
DATASET_DIR. With --skip-bad such records are counted, reported in the
summary and the manifest, and skipped; a truncated or corrupt stream ends
that input (what was read before the cut is kept, and it counts as one
bad record).

Page ids are MediaWiki page ids (or stable 63-bit hashes of string ids,
which are never shown to people: messages name a page by its title); if two
sources (two wikis) use the same id, the page read later gets the id
hash("<source>:<id>") and the summary counts it; the same id twice in one
source (overlapping dump parts) is bad input. The id as the source spells
it (MediaWiki page id, Yelp business_id, the --id values) is kept in the
dataset's source_id column and in analyze's page_stats, to join results
back to the source.

On a terminal a progress bar shows the stored bytes read of the total (the
percentage and the ETA), the decompressed bytes and their rate, and pages
and revisions per second; otherwise a log line every 10 s says the same.
The summary at the end gives the stored and decompressed bytes, the rate in
decompressed bytes per second, and one line per reason anything was left
out, naming the flag ("1,063 pages below --min-updates 2").`,
		Example: `  # a Wikipedia stub dump, articles only
  revisit ingest enwiki-20240101-stub-meta-history.xml.gz -o enwiki

  # several parts, talk pages too, pages with at least 100 updates since 2010
  revisit ingest dewiki-*-pages-meta-history*.xml.bz2 --namespaces 0,1 \
      --min-updates 100 --since 2010-01-01 -o dewiki

  # the Yelp dataset tar (reviews, tips, check-ins, business names/cities)
  revisit ingest yelp_dataset.tar -o yelp

  # a git history as CSV: a file is a page, a commit an update
  revisit ingest file_commits.csv.gz --id path --time commit_time_utc -o git

  # one object per (language, article), titled by a column
  revisit ingest edits.csv --id language,article --time ts --title name -o edits

  # one object per file, keyed by timestamps (id from the file name)
  revisit ingest covid19/*.json --format jsonkeys --id-from-filename -o covid

  # what counts as an update: no identity reverts, bots or minor edits
  revisit ingest enwiki-*-stub-meta-history*.xml.gz --drop-reverts \
      --drop-bots --bot-list bots.txt --drop-minor -o enwiki-clean

  # Wikimedia's mediawiki_history TSV dumps (detected; or --format mediawiki-history)
  revisit ingest 2024-10.simplewiki.all-time.tsv.bz2 --drop-reverts --drop-bots -o simple

  # from a pipe
  curl -s https://…/dump.xml.zst | revisit ingest - -o out`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseRenamed(cmd, renamedTitle); err != nil {
				return err
			}
			opt.Inputs, opt.Version, opt.Given = args, version, cmd.Flags().Changed
			opt.JobArgs = childFlags(cmd.Flags(), map[string]bool{"output": true, "jobs": true, "quiet": true})
			return ingest.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opt.Output, "output", "o", "", "dataset directory to write (replaced atomically if it holds a dataset)")
	f.IntVar(&opt.Jobs, "jobs", 1, "read up to K inputs at once, each in its own process (≤ 256 MiB each), then join the datasets; the inputs must hold different pages (the parts of a Wikipedia dump), not Yelp files")
	f.IntVar(&opt.Parts, "parts", 0, "write the dataset as N part files partitioned by page-id hash, the rule of --shard (docs/scale-out.md; 0: one pages.parquet)")
	addIngestFlags(f, &opt)
	addRenamed(f, renamedTitle)
	return cmd
}

// Help of the generic-log flags ingest and run share.
const (
	formatHelp = "input format when not detected: mediawiki-history (Wikimedia's TSV dumps), or a generic log's csv, tsv, jsonl, jsonkeys; auto detects"

	idHelp    = "generic log: column (name or 0-based index) holding the object id, or several separated by commas (language,article): the object is their tuple, titled a/b"
	titleHelp = "generic log: optional column holding the object's title (its first non-empty value is kept)"
)

// addIngestFlags defines on f ingest's filters, caps and generic-log
// options, which ingest and run share (ingest.CommandOptions.ParseFlags
// reads their text). --min-updates defaults to pipeline.DefaultMinUpdates
// in both commands, so that 'ingest' then 'analyze' and 'run' keep the
// same pages.
func addIngestFlags(f *pflag.FlagSet, opt *ingest.CommandOptions) {
	f.StringVar(&opt.NamespacesText, "namespaces", "0", "MediaWiki namespaces to keep, comma-separated (0 = articles, 1 = talk, …)")
	f.BoolVar(&opt.AllNamespaces, "all-namespaces", false, "keep pages of every namespace")
	f.IntVar(&opt.MinUpdates, "min-updates", pipeline.DefaultMinUpdates, "drop pages with fewer updates at ingest (after the time range and collapsing)")
	f.StringVar(&opt.SinceText, "since", "", "keep revisions at or after this time (RFC 3339 or YYYY-MM-DD, UTC)")
	f.StringVar(&opt.UntilText, "until", "", "keep revisions before this time (RFC 3339 or YYYY-MM-DD, UTC)")
	f.BoolVar(&opt.NoRedirects, "no-redirects", false, "drop MediaWiki redirect pages")
	f.BoolVar(&opt.SkipBad, "skip-bad", false, "count and skip bad records instead of failing")
	f.BoolVar(&opt.BuiltinDecoders, "builtin-decoders", false, "decode xz, .lzma and 7z inputs in-process, not with the system's xz or 7z (the manifest's inputs[].decoder says which ran)")
	f.Int64Var(&opt.MaxRevisionsPerPage, "max-revisions-per-page", ingest.DefaultMaxRevisionsPerPage, "a page (or Yelp/generic object) with more revisions is bad input (bounds memory: about 50 bytes per revision at the cap)")
	f.IntVar(&opt.MaxLineBytes, "max-line-bytes", ingest.DefaultMaxLineBytes, "a longer JSON/TSV line, CSV record or jsonkeys file is bad input (bounds memory: a few times the cap)")
	addRevisionFilterFlags(f, &opt.Options)
	f.StringVar(&opt.Source, "source", "", "source name of MediaWiki pages (default: the dump's dbname) and of generic logs (default: generic)")
	f.StringVar(&opt.Generic.Format, "format", "auto", formatHelp)
	f.StringVar(&opt.Generic.ID, "id", "", idHelp)
	f.StringVar(&opt.Generic.Title, "title-column", "", titleHelp)
	f.StringVar(&opt.Generic.Time, "time", "", "generic log: column (name or 0-based index) holding the timestamp")
	f.StringVar(&opt.Generic.Group, "group", "", "generic log: optional column holding the object's group (site)")
	f.BoolVar(&opt.Generic.IDFromFileName, "id-from-filename", false, "generic log: the whole file is one object named after the file")
	f.BoolVar(&opt.Generic.IDFromDir, "id-from-dir", false, "with --id-from-filename: name the object after the file's directory")
	f.StringVar(&opt.Generic.TimeLayout, "time-layout", "auto", "generic log timestamps: auto, rfc3339, date, datetime, epoch, epochms or a Go layout")
	f.StringVar(&opt.TimeOriginText, "time-origin", "", "generic log: numeric times are seconds (epochms: milliseconds) after this time (RFC 3339 or YYYY-MM-DD, UTC): for relative times such as seconds since the first edit; with --time-layout auto any number is then relative")
	f.IntVar(&opt.Generic.SkipLines, "skip-lines", 0, "generic log: lines to skip before the header (a title line), also when the format is detected; INPUT:skip=N sets it for one input (unless a file is named so)")
}

// addRevisionFilterFlags adds the revision filters ingest and run share:
// what counts as an update on a wiki.
func addRevisionFilterFlags(f *pflag.FlagSet, opt *ingest.Options) {
	f.BoolVar(&opt.DropReverts, "drop-reverts", false, "leave out identity reverts (a revision with the sha1 of one of the previous 16 revisions: --revert-radius + 1) and the revisions they undo")
	f.BoolVar(&opt.DropBots, "drop-bots", false, "leave out revisions by bots (user names matching --bot-pattern or listed in --bot-list; IP editors are never bots)")
	f.BoolVar(&opt.DropMinor, "drop-minor", false, "leave out revisions marked minor")
	f.StringVar(&opt.BotPattern, "bot-pattern", "", "with --drop-bots: regular expression of bot user names (default "+ingest.DefaultBotPattern+": \"bot\" ending a word)")
	f.BoolVar(&opt.NoBotPattern, "no-bot-pattern", false, "with --drop-bots: only the names of --bot-list are bots")
	f.StringVar(&opt.BotList, "bot-list", "", "with --drop-bots (implied): `FILE` of bot user names, one per line (# comments)")
	f.IntVar(&opt.RevertRadius, "revert-radius", ingest.DefaultRevertRadius, "with --drop-reverts: the most revisions an identity revert can undo (mwreverts' radius; a revision's sha1 is compared with the N+1 before it)")
}

// childFlags are the flags set on the command line, as arguments that give
// a child process the same settings; skip names the flags left out.
func childFlags(fs *pflag.FlagSet, skip map[string]bool) []string {
	var args []string
	fs.Visit(func(f *pflag.Flag) {
		if skip[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}
