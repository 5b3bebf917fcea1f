package mwhistory

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// BenchmarkBots reads 200,000 revision lines (Schema76, 100 pages, users
// not renamed) with a regexp bot test, as --drop-bots gives.
func BenchmarkBots(b *testing.B) {
	c := schemas[76]
	var buf bytes.Buffer
	f := make([]string, c.n)
	for i := range 200_000 {
		clear(f)
		f[c.wiki], f[c.entity], f[c.typ] = "testwiki", "revision", "create"
		f[c.timestamp] = "2020-01-01 00:00:00.0"
		user := "User" + strings.Repeat("x", i%7)
		f[c.userText], f[c.userTextNow] = user, user
		f[c.pageID], f[c.pageTitle], f[c.pageNS] = string(rune('1'+i%9))+"00", "Title", "0"
		buf.WriteString(strings.Join(f, "\t"))
		buf.WriteByte('\n')
	}
	in := buf.Bytes()
	bot := regexp.MustCompile(`(?i)bot\b`)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r := NewReader(bytes.NewReader(in), Options{IsBot: func(u string) series.BotRule {
			if bot.MatchString(u) {
				return series.BotByName
			}
			return series.NotBot
		}})
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
