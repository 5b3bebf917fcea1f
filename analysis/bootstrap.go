package analysis

import (
	"hash/fnv"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/model"
)

// Intervals over pages (docs/methods.md#seeds). The intervals over seeds
// (seeds.go) measure only the crawl's randomness on the pages replayed:
// with a constant crawler the seeds move only its phase, and many of
// them have zero width. A reader asks how a mean error, or a ranking,
// would change with other pages. The page bootstrap answers: the pages
// are resampled with replacement, each page carrying its error averaged
// over the R seeds (a page's seeds are nested in it, so resampling the
// pages carries the seeds' variation inside each page's mean, and the
// variation between pages on top; resampling (page, seed) pairs instead
// would treat the R crawls of one page as R independent pages and
// understate the variation between pages). The interval is the
// percentile interval of the resampled means.

// BootstrapResamples is the number of bootstrap resamples of the pages:
// 2,000 leave 50 resamples beyond each end of a 95 % percentile interval,
// so that its ends move little from one seed to another.
const BootstrapResamples = 2000

// Bootstrap resamples Pages pages with replacement Resamples times, each
// resample drawn from the stream (Seed, Stream): every series resampled
// with the same Bootstrap sees the same resamples, so differences and
// rankings of methods are paired by resample.
type Bootstrap struct {
	Resamples int
	Pages     int
	Seed      uint64
	Stream    uint64
}

// NewBootstrap is the bootstrap of n pages with BootstrapResamples
// resamples, drawn from seed on the stream named by key (a sampler and
// kind: one stream per group of methods compared with each other).
func NewBootstrap(n int, seed uint64, key string) Bootstrap {
	h := fnv.New64a()
	h.Write([]byte("page bootstrap/" + key))
	return Bootstrap{Resamples: BootstrapResamples, Pages: n, Seed: seed, Stream: h.Sum64()}
}

// Means returns, for each series x (one value per page, NaN where the
// page has none), its mean over the pages of every resample: out[k][b]
// is the mean of xs[k] over resample b, a page drawn twice counting
// twice, pages without a value left out (NaN when the resample drew
// none with a value). Every series must have Pages values.
func (b Bootstrap) Means(xs ...[]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for k := range out {
		out[k] = make([]float64, b.Resamples)
	}
	if b.Pages == 0 {
		for k := range out {
			for i := range out[k] {
				out[k][i] = math.NaN()
			}
		}
		return out
	}
	r := model.NewRand(b.Seed, b.Stream)
	draw := make([]int, b.Pages)
	sum := make([]float64, len(xs))
	cnt := make([]int, len(xs))
	for s := 0; s < b.Resamples; s++ {
		for i := range draw {
			draw[i] = r.IntN(b.Pages)
		}
		for k, x := range xs {
			sum[k], cnt[k] = 0, 0
			for _, i := range draw {
				if v := x[i]; !math.IsNaN(v) {
					sum[k] += v
					cnt[k]++
				}
			}
			out[k][s] = math.NaN()
			if cnt[k] > 0 {
				out[k][s] = sum[k] / float64(cnt[k])
			}
		}
	}
	return out
}

// Interval is the mean of x over its pages with a value, and the
// percentile interval at Level of its resampled means (Means): the
// (1 − Level)/2 and (1 + Level)/2 quantiles of the finite resampled
// means (type 7). N is the pages with a value. With fewer than two such
// pages there is nothing to resample: Lo and Hi are NaN.
func (b Bootstrap) Interval(x []float64) Interval {
	return b.intervalOf(x, b.Means(x)[0])
}

// Paired is the Interval of the per-page differences x − y over the
// pages where both have a value: the paired comparison of two methods
// over pages. For identical series it is exactly 0, Lo = Hi = 0.
func (b Bootstrap) Paired(x, y []float64) Interval {
	return b.Interval(pairedDiff(x, y))
}

// pairedDiff is x_i − y_i per page (NaN when either is).
func pairedDiff(x, y []float64) []float64 {
	d := make([]float64, len(x))
	for i := range d {
		d[i] = x[i] - y[i]
	}
	return d
}

// intervalOf is Interval of x given its resampled means.
func (b Bootstrap) intervalOf(x, means []float64) Interval {
	iv := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	var sum float64
	for _, v := range x {
		if !math.IsNaN(v) {
			sum += v
			iv.N++
		}
	}
	if iv.N == 0 {
		return iv
	}
	iv.Mean = sum / float64(iv.N)
	if iv.N < 2 {
		return iv
	}
	var m []float64
	for _, v := range means {
		if !math.IsNaN(v) {
			m = append(m, v)
		}
	}
	if len(m) == 0 {
		return iv
	}
	slices.Sort(m)
	iv.Lo, iv.Hi = quantileSorted(m, (1-Level)/2), quantileSorted(m, (1+Level)/2)
	return iv
}

// quantileSorted is the p-quantile of sorted values s by linear
// interpolation between order statistics (Hyndman & Fan type 7, as
// quantilesOf): h = (n − 1)p, Q = s_⌊h⌋ + (h − ⌊h⌋)(s_⌊h⌋+1 − s_⌊h⌋).
func quantileSorted(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// WinShares is, for each series (one method's per-page errors, all
// resampled together), the share of resamples in which its mean is the
// lowest of all the series with a value in that resample (ties to the
// first): how often each method would rank first with other pages.
// NaN for every series when there are fewer than two pages.
func (b Bootstrap) WinShares(xs ...[]float64) []float64 {
	out := make([]float64, len(xs))
	if b.Pages < 2 || b.Resamples == 0 {
		for k := range out {
			out[k] = math.NaN()
		}
		return out
	}
	means := b.Means(xs...)
	for s := 0; s < b.Resamples; s++ {
		best := -1
		for k := range xs {
			if v := means[k][s]; !math.IsNaN(v) && (best < 0 || v < means[best][s]) {
				best = k
			}
		}
		if best >= 0 {
			out[best]++
		}
	}
	for k := range out {
		out[k] /= float64(b.Resamples)
	}
	return out
}
