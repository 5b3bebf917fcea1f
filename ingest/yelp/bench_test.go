//go:build unix

package yelp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// synthReviews builds n 2019+ review lines shaped like the real file
// (about 700 bytes each, escapes in the text, 20,000 businesses with a
// skewed popularity), from a fixed seed.
func synthReviews(n int) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	words := strings.Fields("the food was great and the service slow but friendly we will come back again \\\"really\\\" ok\\n\\nnext time try pizza pasta")
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		biz := int(20000 * rng.Float64() * rng.Float64())
		var text strings.Builder
		for k := 40 + rng.IntN(200); k > 0; k-- {
			text.WriteString(words[rng.IntN(len(words))])
			text.WriteByte(' ')
		}
		fmt.Fprintf(&b, `{"review_id":"r%021d","user_id":"u%021d","business_id":"b%021d","stars":%d.0,"useful":%d,"funny":0,"cool":1,"text":"%s","date":"20%02d-%02d-%02d %02d:%02d:%02d"}`+"\n",
			i, rng.IntN(1e6), biz, 1+rng.IntN(5), rng.IntN(9), text.String(),
			5+rng.IntN(14), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60))
	}
	return b.Bytes()
}

// BenchmarkReader measures the whole reader (scan, gather, emit) on
// synthetic reviews: MB/s from SetBytes, records/s reported.
func BenchmarkReader(b *testing.B) {
	data := synthReviews(20000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		rd, err := NewReader(bytes.NewReader(data), source.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0, len(data), 20000)
}

// BenchmarkEncodingJSONLines is the alternative the hand scanner is
// measured against: bufio.Scanner lines and json.Unmarshal into a minimal
// struct (only the fields are decoded, the text is still scanned).
func BenchmarkEncodingJSONLines(b *testing.B) {
	data := synthReviews(20000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		m := map[string][]string{}
		for sc.Scan() {
			var rec struct {
				BusinessID string `json:"business_id"`
				Date       string `json:"date"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				b.Fatal(err)
			}
			m[rec.BusinessID] = append(m[rec.BusinessID], rec.Date)
		}
	}
	reportCPU(b, cpu0, len(data), 20000)
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

// reportCPU adds records/s (wall) and MB/cpu-s, records/cpu-s.
func reportCPU(b *testing.B, cpu0 float64, bytes, records int) {
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(records*b.N)/b.Elapsed().Seconds(), "records/s")
	if cpu > 0 {
		b.ReportMetric(float64(bytes*b.N)/1e6/cpu, "MB/cpu-s")
		b.ReportMetric(float64(records*b.N)/cpu, "records/cpu-s")
	}
}

// BenchmarkReaderReal reads the complete lines of the real tilmanbeck
// review sample (3,610 reviews, 2.9 MB) repeated 8 times.
func BenchmarkReaderReal(b *testing.B) {
	raw, err := os.ReadFile(realdata.Path(b, "yelp/tilmanbeck__dcwe/yelp_academic_dataset_review.json"))
	if err != nil {
		b.Fatal(err)
	}
	raw = raw[:bytes.LastIndexByte(raw, '\n')+1] // drop the cut last line
	data := bytes.Repeat(raw, 8)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		rd, err := NewReader(bytes.NewReader(data), source.Options{})
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
	reportCPU(b, cpu0, len(data), 8*3610)
}
