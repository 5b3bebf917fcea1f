package generate

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/revisit-dev/revisit/internal/units"
)

// appendTimestamp appends Unix second s as "YYYY-MM-DDTHH:MM:SSZ" (sep 'T',
// zone "Z": MediaWiki) or "YYYY-MM-DD HH:MM:SS" (sep ' ', no zone: Yelp).
// It is the civil-from-days algorithm (proleptic Gregorian), valid for
// years 0–9999, and much faster than time.Time.AppendFormat.
func appendTimestamp(b []byte, s int64, sep byte, zone bool) []byte {
	days := s / units.Day
	sod := s - days*units.Day
	if sod < 0 {
		sod += units.Day
		days--
	}
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10), sep)
	h, mi, se := sod/3600, sod/60%60, sod%60
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+se/10), byte('0'+se%10))
	if zone {
		b = append(b, 'Z')
	}
	return b
}

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// appendSHA1 appends 31 random base-36 digits, the shape of MediaWiki's
// <sha1> (a SHA-1 in base 36); the generator has no text to hash.
// Each digit is the integer part of 36·v for a 64-bit fraction v, which is
// then replaced by the fractional part (one multiplication per digit, 11
// digits per draw).
func appendSHA1(b []byte, r *rand.Rand) []byte {
	for k := 0; k < 3; k++ {
		v := r.Uint64()
		n := 11
		if k == 2 {
			n = 9
		}
		for j := 0; j < n; j++ {
			var d uint64
			d, v = bits.Mul64(v, 36)
			b = append(b, base36[d])
		}
	}
	return b
}

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// appendYelpID appends a 22-character id in Yelp's alphabet, a function of
// the 128 bits (hi, lo).
func appendYelpID(b []byte, hi, lo uint64) []byte {
	for j := 0; j < 11; j++ {
		b = append(b, base64url[hi&63])
		hi >>= 6
	}
	for j := 0; j < 11; j++ {
		b = append(b, base64url[lo&63])
		lo >>= 6
	}
	return b
}

// mix64 is the splitmix64 finaliser: a bijection on 64-bit values used to
// turn small integers (a user number) into id bits deterministically.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// appendEscaped appends s with the five XML special characters escaped
// (valid in element content and in double-quoted attributes; also correct
// inside JSON strings only when s has no '"' or '\\' — use appendJSON).
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '\'':
			b = append(b, "&#39;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// logUniformInt draws an integer in [1, n] with P(k) ∝ roughly 1/k (a
// heavy-tailed choice: a few users or cities take most of the activity).
func logUniformInt(r *rand.Rand, n int) int {
	return logUniform(r, n, math.Log(float64(n)))
}

// logUniform is logUniformInt with ln n given.
func logUniform(r *rand.Rand, n int, logn float64) int {
	k := int(math.Exp(r.Float64() * logn))
	if k < 1 {
		k = 1
	}
	if k > n {
		k = n
	}
	return k
}
