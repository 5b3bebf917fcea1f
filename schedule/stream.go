package schedule

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
)

// PlanSource computes every plan for a large input in bounded memory: it
// reads the source once, keeping per page only what the solver needs (the
// store: Ĝ's knots and D values as float32 after the concave projection,
// at most MaxKnots of them; λ̂; the importance and host index when
// given), solves one plan at a time without keeping its rates
// (Solution.Rate computes them again from the multipliers when they are
// written), and reads the source a second time for the ids and titles
// when writing (Result.Write). The plans are Plan's up to the float32
// storage (a rate moves by about 10⁻⁷ of itself) and the thinning of
// curves of more than MaxKnots knots.
func PlanSource(src *Source, opt Options) (*Result, error) {
	names, err := ParsePlans(opt.Plans)
	if err != nil {
		return nil, err
	}
	if !(opt.Budget > 0) {
		return nil, fmt.Errorf("schedule: budget %g visits/s: want > 0", opt.Budget)
	}
	perUnit := src.Unit
	st := newStore()
	ctx := context.Background()
	if src.Ctx != nil {
		ctx = src.Ctx
	}
	var imp *importanceJoin
	if opt.weights == nil && opt.Importance != "" {
		// checked and sorted before the pages are read
		if imp, err = openImportance(ctx, opt.Importance, opt.MissingWeight); err != nil {
			return nil, err
		}
		defer imp.close()
	}
	var hosts *hostIndex
	if opt.HostLimits != nil {
		hosts = newHostIndex(opt.HostLimits)
	}
	h := fnv.New64a()
	var idb [8]byte
	var reported int64
	var ids []int64 // to refuse a page id given twice, then dropped
	st.exact = src.truth
	err = src.Each(func(sp *SourcePage) error {
		id, title := sp.ID, sp.Title
		if imp != nil {
			if err := imp.add(st.Len(), id, title); err != nil {
				return err
			}
		}
		if hosts != nil {
			hosts.add(title, perUnit)
		}
		ids = append(ids, id)
		putID(&idb, id)
		h.Write(idb[:])
		if err := st.add(id, sp.X, sp.G, sp.Lambda, sp.Note); err != nil {
			return err
		}
		st.watch(sp.Watched)
		if opt.StoreGrew != nil {
			if b := st.Bytes(); b >= reported+storeStep {
				reported = b
				opt.StoreGrew(b)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if id, dup := duplicateID(ids); dup {
		return nil, src.sharedID(id)
	}
	ids = nil
	if opt.StoreGrew != nil {
		opt.StoreGrew(st.Bytes())
	}
	in := &Input{Unit: src.Unit, UnitName: src.UnitName, Source: src.Desc, Method: src.Method, Sampler: src.Sampler}
	res := &Result{In: in, W: opt.weights, Budget: opt.Budget, MinRate: opt.MinRate, N: st.Len(), src: src, idHash: h.Sum64()}
	if imp != nil {
		if res.W, res.ImportanceStats, err = imp.weights(ctx, st.Len()); err != nil {
			return nil, err
		}
	}
	p := &Problem{st: st, Lambda: st.lambda, W: res.W, Budget: opt.Budget * perUnit, MinRate: opt.MinRate * perUnit,
		Exact: st.exact, Prior: opt.Prior && !st.exact}
	if hosts != nil {
		if p.Limits, res.HostStats, err = hosts.done(st.Len()); err != nil {
			return nil, err
		}
		res.Hosts = res.HostStats.Applied
	}
	if err := p.Prepare(); err != nil {
		return nil, err
	}
	res.prob = p
	n := res.N
	for i := range n {
		if p.Unchanged(i) {
			res.Unchanged++
		}
	}
	res.OnPrior = p.onPrior
	cut, tie := fastCut(st.lambda, 0.1)
	for _, name := range names {
		if err := src.stopped(); err != nil {
			return nil, err
		}
		s, err := p.solve(name, false)
		if err != nil {
			return nil, fmt.Errorf("schedule: plan %s: %w", name, err)
		}
		pr := PlanResult{Name: name, Solution: s}
		// Per chunk: Σ w φ_G, Σ w φ_Poisson, Σ w, Σ f over the fastest,
		// pages visited, Σ f over the pages on the prior; added in chunk
		// order.
		parts := make([][6]float64, (n+chunk-1)/chunk)
		parallel(n, func(lo, hi int) float64 {
			var a [6]float64
			for i := lo; i < hi; i++ {
				f := s.Rate(i)
				g, po := p.Predicted(i, f)
				wi := p.w(i)
				a[0] += wi * g
				a[1] += wi * po
				a[2] += wi
				if l := st.lambda[i]; l > cut || (l == cut && i < tie) {
					a[3] += f
				}
				if f > 0 {
					a[4]++
				}
				if p.OnPrior(i) {
					a[5] += f
				}
			}
			parts[lo/chunk] = a
			return 0
		})
		var t [6]float64
		for _, a := range parts {
			for k := range t {
				t[k] += a[k]
			}
		}
		pr.MeanG, pr.MeanPoisson = t[0]/t[2], t[1]/t[2]
		pr.FastShare, pr.PriorShare = t[3]/s.Used, t[5]/s.Used
		pr.Visited = int64(t[4])
		res.Plans = append(res.Plans, pr)
	}
	sweep := opt.Sweep
	if sweep == nil {
		sweep = DefaultSweep()
	}
	for _, m := range sweep {
		if err := src.stopped(); err != nil {
			return nil, err
		}
		q := *p
		q.Budget = p.Budget * m
		pt := SweepPoint{Budget: opt.Budget * m}
		for _, name := range names {
			s, err := q.solve(name, false)
			if err != nil {
				pt.Fresh = append(pt.Fresh, math.NaN())
				continue
			}
			num := sum(parallel(n, func(lo, hi int) float64 {
				a := 0.0
				for i := lo; i < hi; i++ {
					g, _ := q.Predicted(i, s.Rate(i))
					a += q.w(i) * g
				}
				return a
			}))
			den := sum(parallel(n, func(lo, hi int) float64 {
				a := 0.0
				for i := lo; i < hi; i++ {
					a += q.w(i)
				}
				return a
			}))
			pt.Fresh = append(pt.Fresh, num/den)
		}
		res.Sweep = append(res.Sweep, pt)
	}
	return res, nil
}

// sharedID is the error of a page id given twice, naming the page and
// its places (the source read again: only on this error).
func (s *Source) sharedID(id int64) error {
	var at []int
	title := ""
	i := 0
	err := s.EachName(func(pid int64, t string) error {
		if pid == id {
			at = append(at, i)
			title = t
		}
		i++
		return nil
	})
	if err != nil || len(at) < 2 {
		return fmt.Errorf("schedule: %s: page id %d is given twice", s.dir, id)
	}
	return fmt.Errorf("schedule: %s: %w", s.dir, sharedIDError(id, title, at[0], at[1]))
}

// storeStep is how much the store grows between StoreGrew calls.
const storeStep = 16 << 20

func putID(b *[8]byte, id int64) {
	for k := range b {
		b[k] = byte(uint64(id) >> (8 * k))
	}
}

// fastCut describes the ⌈q n⌉ pages with the largest λ̂, ties by index
// (fastest), without sorting: page i is among them iff λ_i > cut, or
// λ_i = cut and i < tie. cut is the ⌈q n⌉-th largest λ̂, found by a radix
// selection on the order-preserving bits of the float64s (four passes of
// 16 bits); NaN λ̂ are not expected (the readers give λ̂ ≥ 0).
func fastCut(lambda []float64, q float64) (cut float64, tie int) {
	k := int(math.Ceil(q * float64(len(lambda))))
	if k == 0 {
		return math.Inf(1), 0
	}
	key := func(v float64) uint64 {
		if v == 0 {
			v = 0 // −0 ties with 0, as in fastest
		}
		b := math.Float64bits(v)
		if b>>63 == 1 {
			return ^b
		}
		return b | 1<<63
	}
	// Find the k-th largest key, 16 bits at a time from the top.
	var prefix, mask uint64
	rank := k // rank among the keys that match the prefix so far
	var hist [1 << 16]int
	for shift := 48; shift >= 0; shift -= 16 {
		clear(hist[:])
		for _, v := range lambda {
			if kv := key(v); kv&mask == prefix {
				hist[(kv>>shift)&0xffff]++
			}
		}
		d := 1<<16 - 1
		for ; d > 0 && hist[d] < rank; d-- {
			rank -= hist[d]
		}
		prefix |= uint64(d) << shift
		mask |= 0xffff << shift
	}
	greater := 0
	for _, v := range lambda {
		if key(v) > prefix {
			greater++
		}
	}
	for i, v := range lambda {
		if key(v) == prefix {
			cut = v
			_ = i
			break
		}
	}
	need := k - greater
	for i, v := range lambda {
		if key(v) == prefix {
			need--
			if need == 0 {
				return cut, i + 1
			}
		}
	}
	return cut, len(lambda)
}
