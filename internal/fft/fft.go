package fft

// The code translated from gonum's fftpack is under gonum's licence:
//
// Copyright ©2013 The Gonum Authors. All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//     * Redistributions of source code must retain the above copyright
//       notice, this list of conditions and the following disclaimer.
//     * Redistributions in binary form must reproduce the above copyright
//       notice, this list of conditions and the following disclaimer in the
//       documentation and/or other materials provided with the distribution.
//     * Neither the name of the Gonum project nor the names of its authors and
//       contributors may be used to endorse or promote products derived from this
//       software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
// ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
// WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
// DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
// FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
// DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
// SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
// CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
// OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

// This file holds the radix-2 and radix-4 real FFT of FFTPACK for lengths
// that are powers of two, translated from gonum.org/v1/gonum's
// dsp/fourier/internal/fftpack (rfft.go, array_no_bounds_checks.go,
// helpers.go; Copyright ©2018–2020 The Gonum Authors, BSD-style licence,
// itself a translation of Paul N. Swarztrauber's public-domain FFTPACK).
// The arithmetic is gonum's, statement for statement, so the results are
// the same bits as fourier.FFT's Coefficients and Sequence; what differs
// is the memory: the transforms run in place in the caller's array with
// one scratch array (2m values for length m), where fourier.FFT copies
// its input into an array of its own, keeps a twiddle table of m values
// and returns the coefficients (and the inverse) in further arrays (5m
// values and more for the ACF's |FFT|² round trip). The twiddles are
// computed where the butterflies use them, by the table's own formula
// (cos and sin of the same products), with the loops over the blocks and
// the frequencies exchanged so that each is computed once per pass: the
// butterflies of one pass read one array and write another, so their
// order does not change a bit. The ACF of a long series (analysis.autocovFFT) is
// the one user: m is up to 4× the series' length.

import (
	"math"
	"math/cmplx"
)

// Pow2 is the real FFT of one power-of-two length n ≥ 2.
type Pow2 struct {
	n    int
	ch   []float64 // scratch, n values
	ifac [15]int
}

// NewPow2 prepares the FFT of length n (a power of two, ≥ 2).
func NewPow2(n int) *Pow2 {
	t := &Pow2{n: n, ch: make([]float64, n)}
	fpInit(n, t.ifac[:])
	return t
}

// Forward replaces c (length n) by its Fourier coefficients in FFTPACK's
// packed order: c[0] the sum, then the real and imaginary parts of
// coefficients 1…n/2−1, then coefficient n/2 (real).
func (t *Pow2) Forward(c []float64) { fpForward(t.n, c[:t.n], t.ch, t.ifac[:]) }

// Backward is the unnormalized inverse of Forward, in place.
func (t *Pow2) Backward(c []float64) { fpBackward(t.n, c[:t.n], t.ch, t.ifac[:]) }

// fpSwap returns c with the real and imaginary parts swapped.
func fpSwap(c complex128) complex128 {
	return complex(imag(c), real(c))
}

// fpArray3 is a column-major three-dimensional view of a slice.
type fpArray3 struct {
	jStride, kStride int
	data             []float64
}

func newFPArray3(i, j, k int, data []float64) fpArray3 {
	return fpArray3{
		jStride: i,
		kStride: i * j,
		data:    data[:i*j*k],
	}
}

func (a fpArray3) at(i, j, k int) float64 {
	return a.data[i+a.jStride*j+a.kStride*k]
}

func (a fpArray3) atCmplx(i, j, k int) complex128 {
	return complex(a.data[i+a.jStride*j+a.kStride*k], a.data[i+a.jStride*j+a.kStride*k+1])
}

func (a fpArray3) set(i, j, k int, v float64) {
	a.data[i+a.jStride*j+a.kStride*k] = v
}

func (a fpArray3) setCmplx(i, j, k int, v complex128) {
	a.data[i+a.jStride*j+a.kStride*k] = real(v)
	a.data[i+a.jStride*j+a.kStride*k+1] = imag(v)
}

func fpInit(n int, ifac []int) {
	ntryh := [4]int{4, 2, 3, 5}

	nl := n
	nf := 0

outer:
	for j, ntry := 0, 0; ; j++ {
		if j < 4 {
			ntry = ntryh[j]
		} else {
			ntry += 2
		}
		for {
			if nl%ntry != 0 {
				continue outer
			}

			ifac[nf+2] = ntry
			nl /= ntry
			nf++

			if ntry == 2 && nf != 1 {
				for i := 1; i < nf; i++ {
					ib := nf - i + 1
					ifac[ib+1] = ifac[ib]
				}
				ifac[2] = 2
			}

			if nl == 1 {
				break outer
			}
		}
	}

	ifac[0] = n
	ifac[1] = nf
}

func fpForward(n int, c, ch []float64, ifac []int) {
	argh := 2 * math.Pi / float64(n)
	nf := ifac[1]
	na := true
	l2 := n

	for k1 := 1; k1 <= nf; k1++ {
		kh := nf - k1
		ip := ifac[kh+2]
		l1 := l2 / ip
		ido := n / l2
		na = !na

		switch ip {
		case 4:
			if na {
				fpRadf4(ido, l1, ch, c, argh)
			} else {
				fpRadf4(ido, l1, c, ch, argh)
			}
		case 2:
			if na {
				fpRadf2(ido, l1, ch, c, argh)
			} else {
				fpRadf2(ido, l1, c, ch, argh)
			}
		}

		l2 = l1
	}

	if na {
		return
	}
	for i := 0; i < n; i++ {
		c[i] = ch[i]
	}
}

func fpRadf2(ido, l1 int, cc, ch []float64, argh float64) {
	cc3 := newFPArray3(ido, l1, 2, cc)
	ch3 := newFPArray3(ido, 2, l1, ch)

	for k := 0; k < l1; k++ {
		ch3.set(0, 0, k, cc3.at(0, k, 0)+cc3.at(0, k, 1))
		ch3.set(ido-1, 1, k, cc3.at(0, k, 0)-cc3.at(0, k, 1))
	}
	if ido < 2 {
		return
	}
	if ido > 2 {
		idp2 := ido + 1
		// The twiddles of FFTPACK's table, computed where they are used:
		// cos and sin of fi·(j·l1·argh), fi = i/2, j = 1…ip−1 (the loops
		// over k and i exchanged, so each is computed once).
		arg1 := float64(1*l1) * argh
		for i := 2; i < ido; i += 2 {
			fi := float64(i / 2)
			w1r, w1i := math.Cos(fi*arg1), math.Sin(fi*arg1)
			for k := 0; k < l1; k++ {
				ic := idp2 - (i + 1)

				t2 := complex(w1r, -w1i) * cc3.atCmplx(i-1, k, 1)
				ch3.setCmplx(i-1, 0, k, cc3.atCmplx(i-1, k, 0)+t2)

				// This is left as conj(z1)-conj(z2) rather than conj(z1-z2)
				// to retain current signed zero behaviour.
				ch3.setCmplx(ic-1, 1, k, cmplx.Conj(cc3.atCmplx(i-1, k, 0))-cmplx.Conj(t2))
			}
		}
		if ido%2 == 1 {
			return
		}
	}
	for k := 0; k < l1; k++ {
		ch3.set(0, 1, k, -cc3.at(ido-1, k, 1))
		ch3.set(ido-1, 0, k, cc3.at(ido-1, k, 0))
	}
}

func fpRadf4(ido, l1 int, cc, ch []float64, argh float64) {
	const hsqt2 = math.Sqrt2 / 2

	cc3 := newFPArray3(ido, l1, 4, cc)
	ch3 := newFPArray3(ido, 4, l1, ch)

	for k := 0; k < l1; k++ {
		tr1 := cc3.at(0, k, 1) + cc3.at(0, k, 3)
		tr2 := cc3.at(0, k, 0) + cc3.at(0, k, 2)
		ch3.set(0, 0, k, tr1+tr2)
		ch3.set(ido-1, 3, k, tr2-tr1)
		ch3.set(ido-1, 1, k, cc3.at(0, k, 0)-cc3.at(0, k, 2))
		ch3.set(0, 2, k, cc3.at(0, k, 3)-cc3.at(0, k, 1))
	}
	if ido < 2 {
		return
	}
	if ido > 2 {
		idp2 := ido + 1
		// The twiddles of FFTPACK's table, computed where they are used:
		// cos and sin of fi·(j·l1·argh), fi = i/2, j = 1…ip−1 (the loops
		// over k and i exchanged, so each is computed once).
		arg1 := float64(1*l1) * argh
		arg2 := float64(2*l1) * argh
		arg3 := float64(3*l1) * argh
		for i := 2; i < ido; i += 2 {
			fi := float64(i / 2)
			w1r, w1i := math.Cos(fi*arg1), math.Sin(fi*arg1)
			w2r, w2i := math.Cos(fi*arg2), math.Sin(fi*arg2)
			w3r, w3i := math.Cos(fi*arg3), math.Sin(fi*arg3)
			for k := 0; k < l1; k++ {
				ic := idp2 - (i + 1)

				c2 := complex(w1r, -w1i) * cc3.atCmplx(i-1, k, 1)
				c3 := complex(w2r, -w2i) * cc3.atCmplx(i-1, k, 2)
				c4 := complex(w3r, -w3i) * cc3.atCmplx(i-1, k, 3)
				t1 := c2 + c4
				t2 := cc3.atCmplx(i-1, k, 0) + c3
				t3 := cc3.atCmplx(i-1, k, 0) - c3
				t4 := cmplx.Conj(c4 - c2)
				ch3.setCmplx(i-1, 0, k, t1+t2)
				ch3.setCmplx(ic-1, 3, k, cmplx.Conj(t2-t1))
				ch3.setCmplx(i-1, 2, k, fpSwap(t4)+t3)
				ch3.setCmplx(ic-1, 1, k, cmplx.Conj(t3-fpSwap(t4)))
			}
		}

		if ido%2 == 1 {
			return
		}
	}
	for k := 0; k < l1; k++ {
		ti1 := -hsqt2 * (cc3.at(ido-1, k, 1) + cc3.at(ido-1, k, 3))
		tr1 := hsqt2 * (cc3.at(ido-1, k, 1) - cc3.at(ido-1, k, 3))
		ch3.set(ido-1, 0, k, tr1+cc3.at(ido-1, k, 0))
		ch3.set(ido-1, 2, k, cc3.at(ido-1, k, 0)-tr1)
		ch3.set(0, 1, k, ti1-cc3.at(ido-1, k, 2))
		ch3.set(0, 3, k, ti1+cc3.at(ido-1, k, 2))
	}
}

func fpBackward(n int, c, ch []float64, ifac []int) {
	argh := 2 * math.Pi / float64(n)
	nf := ifac[1]
	na := false
	l1 := 1

	for k1 := 1; k1 <= nf; k1++ {
		ip := ifac[k1+1]
		l2 := ip * l1
		ido := n / l2

		switch ip {
		case 4:
			if na {
				fpRadb4(ido, l1, ch, c, argh)
			} else {
				fpRadb4(ido, l1, c, ch, argh)
			}
			na = !na
		case 2:
			if na {
				fpRadb2(ido, l1, ch, c, argh)
			} else {
				fpRadb2(ido, l1, c, ch, argh)
			}
			na = !na
		}

		l1 = l2
	}

	if na {
		for i := 0; i < n; i++ {
			c[i] = ch[i]
		}
	}
}

func fpRadb2(ido, l1 int, cc, ch []float64, argh float64) {
	cc3 := newFPArray3(ido, 2, l1, cc)
	ch3 := newFPArray3(ido, l1, 2, ch)

	for k := 0; k < l1; k++ {
		ch3.set(0, k, 0, cc3.at(0, 0, k)+cc3.at(ido-1, 1, k))
		ch3.set(0, k, 1, cc3.at(0, 0, k)-cc3.at(ido-1, 1, k))
	}

	if ido < 2 {
		return
	}
	if ido > 2 {
		idp2 := ido + 1
		// The twiddles of FFTPACK's table, computed where they are used:
		// cos and sin of fi·(j·l1·argh), fi = i/2, j = 1…ip−1 (the loops
		// over k and i exchanged, so each is computed once).
		arg1 := float64(1*l1) * argh
		for i := 2; i < ido; i += 2 {
			fi := float64(i / 2)
			w1r, w1i := math.Cos(fi*arg1), math.Sin(fi*arg1)
			for k := 0; k < l1; k++ {
				ic := idp2 - (i + 1)

				ch3.setCmplx(i-1, k, 0, cc3.atCmplx(i-1, 0, k)+cmplx.Conj(cc3.atCmplx(ic-1, 1, k)))

				t2 := cc3.atCmplx(i-1, 0, k) - cmplx.Conj(cc3.atCmplx(ic-1, 1, k))
				ch3.setCmplx(i-1, k, 1, complex(w1r, w1i)*t2)
			}
		}

		if ido%2 == 1 {
			return
		}
	}
	for k := 0; k < l1; k++ {
		ch3.set(ido-1, k, 0, 2*cc3.at(ido-1, 0, k))
		ch3.set(ido-1, k, 1, -2*cc3.at(0, 1, k))
	}
}

func fpRadb4(ido, l1 int, cc, ch []float64, argh float64) {
	cc3 := newFPArray3(ido, 4, l1, cc)
	ch3 := newFPArray3(ido, l1, 4, ch)

	for k := 0; k < l1; k++ {
		tr1 := cc3.at(0, 0, k) - cc3.at(ido-1, 3, k)
		tr2 := cc3.at(0, 0, k) + cc3.at(ido-1, 3, k)
		tr3 := cc3.at(ido-1, 1, k) + cc3.at(ido-1, 1, k)
		tr4 := cc3.at(0, 2, k) + cc3.at(0, 2, k)
		ch3.set(0, k, 0, tr2+tr3)
		ch3.set(0, k, 1, tr1-tr4)
		ch3.set(0, k, 2, tr2-tr3)
		ch3.set(0, k, 3, tr1+tr4)
	}

	if ido < 2 {
		return
	}
	if ido > 2 {
		idp2 := ido + 1
		// The twiddles of FFTPACK's table, computed where they are used:
		// cos and sin of fi·(j·l1·argh), fi = i/2, j = 1…ip−1 (the loops
		// over k and i exchanged, so each is computed once).
		arg1 := float64(1*l1) * argh
		arg2 := float64(2*l1) * argh
		arg3 := float64(3*l1) * argh
		for i := 2; i < ido; i += 2 {
			fi := float64(i / 2)
			w1r, w1i := math.Cos(fi*arg1), math.Sin(fi*arg1)
			w2r, w2i := math.Cos(fi*arg2), math.Sin(fi*arg2)
			w3r, w3i := math.Cos(fi*arg3), math.Sin(fi*arg3)
			for k := 0; k < l1; k++ {
				ic := idp2 - (i + 1)

				t1 := cc3.atCmplx(i-1, 0, k) - cmplx.Conj(cc3.atCmplx(ic-1, 3, k))
				t2 := cc3.atCmplx(i-1, 0, k) + cmplx.Conj(cc3.atCmplx(ic-1, 3, k))
				t3 := cc3.atCmplx(i-1, 2, k) + cmplx.Conj(cc3.atCmplx(ic-1, 1, k))
				t4 := fpSwap(cc3.atCmplx(i-1, 2, k) - cmplx.Conj(cc3.atCmplx(ic-1, 1, k)))
				ch3.setCmplx(i-1, k, 0, t2+t3)

				c2 := t1 - cmplx.Conj(t4)
				c3 := t2 - t3
				c4 := t1 + cmplx.Conj(t4)
				ch3.setCmplx(i-1, k, 1, complex(w1r, w1i)*c2)
				ch3.setCmplx(i-1, k, 2, complex(w2r, w2i)*c3)
				ch3.setCmplx(i-1, k, 3, complex(w3r, w3i)*c4)
			}
		}

		if ido%2 == 1 {
			return
		}
	}
	for k := 0; k < l1; k++ {
		tr1 := cc3.at(ido-1, 0, k) - cc3.at(ido-1, 2, k)
		ti1 := cc3.at(0, 1, k) + cc3.at(0, 3, k)
		tr2 := cc3.at(ido-1, 0, k) + cc3.at(ido-1, 2, k)
		ti2 := cc3.at(0, 3, k) - cc3.at(0, 1, k)
		ch3.set(ido-1, k, 0, tr2+tr2)
		ch3.set(ido-1, k, 1, math.Sqrt2*(tr1-ti1))
		ch3.set(ido-1, k, 2, ti2+ti2)
		ch3.set(ido-1, k, 3, -math.Sqrt2*(tr1+ti1))
	}
}
