package ingest

import (
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// BenchmarkFilterRevisions times the revision filters on a page of 100,000
// revisions of which every third is minor and every fifth a bot's.
func BenchmarkFilterRevisions(b *testing.B) {
	const n = 100_000
	d := &driver{opt: Options{DropBots: true, DropMinor: true}}
	d.counts.Skipped = map[string]int64{}
	revs, minor, bot := make([]int64, n), make([]bool, n), make([]series.BotRule, n)
	for i := range revs {
		revs[i], minor[i] = int64(i), i%3 == 0
		if i%5 == 0 {
			bot[i] = series.BotByName
		}
	}
	p := &series.RawPage{}
	b.SetBytes(n)
	for b.Loop() {
		p.Revisions = append(p.Revisions[:0], revs...)
		p.Minor, p.Bot = append(p.Minor[:0], minor...), append(p.Bot[:0], bot...)
		d.filterRevisions(p)
	}
}
