//go:build unix

package generic

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// synthGitLog builds a git-log CSV like the derived files in SOURCES.md §3
// (path, commit, author and commit time), n rows over 5,000 paths.
func synthGitLog(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 5))
	var b bytes.Buffer
	b.WriteString("path,commit,author_time_utc,commit_time_utc\r\n")
	t := int64(1643414400)
	for i := 0; i < n; i++ {
		t += rng.Int64N(600)
		ts := fmt.Sprintf("%d-%02d-%02dT%02d:%02d:%02dZ", 2022+int(t%3), 1+int(t/7%12), 1+int(t/11%28), t/13%24, t/17%60, t%60)
		fmt.Fprintf(&b, "aws/service-%d/command.txt,%040x,%s,%s\r\n", int(5000*rng.Float64()*rng.Float64()), rng.Uint64(), ts, ts)
	}
	return b.Bytes()
}

// synthArrays builds JSON-array lines like the Kevinisagirl file.
func synthArrays(n int) []byte {
	rng := rand.New(rand.NewPCG(5, 7))
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		p := rng.IntN(1000)
		fmt.Fprintf(&b, `["%d", "Page_%d", "20%02d-%02d-%02dT%02d:%02d:%02dZ", "1"]`+"\n", 100000+p, p,
			1+rng.IntN(7), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60))
	}
	return b.Bytes()
}

func benchRead(b *testing.B, data []byte, records int, opt Options) {
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		rd, err := NewReader(bytes.NewReader(data), opt, source.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := rd.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(records*b.N)/b.Elapsed().Seconds(), "records/s")
	if cpu > 0 {
		b.ReportMetric(float64(len(data)*b.N)/1e6/cpu, "MB/cpu-s")
		b.ReportMetric(float64(records*b.N)/cpu, "records/cpu-s")
	}
}

func BenchmarkCSV(b *testing.B) {
	benchRead(b, synthGitLog(200000), 200000, Options{ID: "path", Time: "commit_time_utc"})
}

func BenchmarkJSONLArrays(b *testing.B) {
	benchRead(b, synthArrays(200000), 200000, Options{ID: "0", Time: "2"})
}

// cpuSeconds is the process's user+system CPU time: on a shared machine
// MB per CPU-second is steadier than MB per wall second.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
