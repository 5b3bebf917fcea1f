package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The expected verdicts below are encoding/json's (json.Valid), checked in
// TestAgainstEncodingJSON; they are spelled out so a reader sees the cases.
var validityCases = []struct {
	in    string
	valid bool
}{
	{`{}`, true},
	{` {"a":1} `, true},
	{`{"a":[1,2,{"b":null}],"c":"x\"y","d":-0.5e+10,"e":true,"f":false}`, true},
	{`{"a":"\u00e9\ud83d\ude00"}`, true},
	{`{"a":1,}`, false},
	{`{"a" 1}`, false},
	{`{"a":01}`, false},
	{`{"a":1.}`, false},
	{`{"a":-}`, false},
	{`{"a":"\x"}`, false},
	{`{"a":"\u12G4"}`, false},
	{"{\"a\":\"tab\there\"}", false}, // raw control character in a string
	{`{"a":tru}`, false},
	{`{"a":"unterminated`, false},
	{`{"a":1}{"b":2}`, false},
	{`{"a":1} x`, false},
	{`[1,2,]`, false},
	{`[]`, true},
	{`"s"`, true},
	{``, false},
}

func TestAgainstEncodingJSON(t *testing.T) {
	for _, c := range validityCases {
		if got, ref := Valid([]byte(c.in)), json.Valid([]byte(c.in)); got != c.valid || ref != c.valid {
			t.Errorf("Valid(%q) = %v, json.Valid = %v, want %v", c.in, got, ref, c.valid)
		}
	}
}

func TestMembers(t *testing.T) {
	in := []byte(`{"business_id":"a\/b","n":[1,{"x":"}"}],"date":"2010-01-02","business_id":"c\u0041"}`)
	var keys []string
	var vals []string
	err := Members(in, func(k []byte, v Value) error {
		keys = append(keys, string(k))
		vals = append(vals, string(v.Str()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Expected by reading the literal above: escapes \/ and \u0041 decoded;
	// the array is passed raw.
	wantK := []string{"business_id", "n", "date", "business_id"}
	wantV := []string{"a/b", `[1,{"x":"}"}]`, "2010-01-02", "cA"}
	for i := range wantK {
		if keys[i] != wantK[i] || vals[i] != wantV[i] {
			t.Fatalf("member %d = %q:%q, want %q:%q", i, keys[i], vals[i], wantK[i], wantV[i])
		}
	}
}

func TestErrorOffset(t *testing.T) {
	// The bad byte is the 'x' at offset 6 (counted by hand: {"a":1x}).
	err := Members([]byte(`{"a":1x}`), nil)
	var e *Error
	if !errors.As(err, &e) || e.Offset != 6 {
		t.Fatalf("got %v, want *Error at offset 6", err)
	}
	// Truncation: the error is at the end of input.
	err = Members([]byte(`{"a":"abc`), nil)
	if !errors.As(err, &e) || e.Offset != 9 {
		t.Fatalf("got %v, want *Error at offset 9", err)
	}
}

func TestCallbackError(t *testing.T) {
	stop := errors.New("stop")
	err := Elements([]byte(`[1,2,3]`), func(i int, v Value) error {
		if i == 1 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Fatalf("got %v, want the callback's error", err)
	}
}

func TestUnquoteLikeEncodingJSON(t *testing.T) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83dx"`, "\"\xff\xfe\"", `"\u0000"`, `"é"`} {
		var ref string
		if err := json.Unmarshal([]byte(s), &ref); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := Unquote([]byte(s)); !bytes.Equal(got, []byte(ref)) {
			t.Errorf("Unquote(%s) = %q, encoding/json gives %q", s, got, ref)
		}
	}
}

// FuzzMembers checks the scanner against encoding/json, the oracle: the
// same texts are valid, the same top-level members are found, and string
// values decode to the same strings.
func FuzzMembers(f *testing.F) {
	for _, c := range validityCases {
		f.Add([]byte(c.in))
	}
	f.Add([]byte(`{"votes": {"funny": 0}, "date": "2007-05-17", "text": "dr. \"g\"\n", "type": "review", "business_id": "vcNAWiLM4dR7D2nwwJ7nCA"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Valid(b) != json.Valid(b) {
			t.Fatalf("Valid = %v, json.Valid = %v", Valid(b), json.Valid(b))
		}
		var ref map[string]json.RawMessage
		refErr := json.Unmarshal(b, &ref)
		got := map[string]Value{}
		err := Members(b, func(k []byte, v Value) error {
			got[string(k)] = v
			return nil
		})
		if (err == nil) != (refErr == nil && ref != nil) {
			t.Fatalf("Members error %v, encoding/json error %v (map %v)", err, refErr, ref != nil)
		}
		if err != nil {
			return
		}
		if len(got) != len(ref) {
			t.Fatalf("%d members, encoding/json %d", len(got), len(ref))
		}
		for k, rv := range ref {
			v, ok := got[k]
			if !ok {
				t.Fatalf("member %q missing", k)
			}
			if !bytes.Equal(bytes.TrimSpace(rv), v.Raw) {
				t.Fatalf("member %q raw %q, encoding/json %q", k, v.Raw, rv)
			}
			if v.Kind == String {
				var s string
				if err := json.Unmarshal(rv, &s); err != nil {
					t.Fatal(err)
				}
				if string(v.Str()) != s {
					t.Fatalf("member %q = %q, encoding/json %q", k, v.Str(), s)
				}
			}
		}
	})
}

// TestStringFastPath checks the eight-byte path on every position of every
// special byte inside a long string, against json.Valid.
func TestStringFastPath(t *testing.T) {
	for _, special := range []byte{'"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 'n'} {
		for pos := 0; pos < 24; pos++ {
			s := []byte(`"` + "abcdefghijklmnopqrstuvwxyz0123456789" + `"`)
			s[1+pos] = special
			if got, want := Valid(s), json.Valid(s); got != want {
				t.Errorf("byte %#x at %d: Valid %v, json.Valid %v", special, pos, got, want)
			}
		}
	}
}

func BenchmarkMembers(b *testing.B) {
	line := []byte(`{"review_id":"lWC-xP3rd6obsecCYsGZRg","user_id":"ak0TdVmGKo4pwqdJSTLwWw","business_id":"buF9druCkbuXLX526sGELQ","stars":4.0,"useful":3,"funny":1,"cool":1,"text":"` +
		strings.Repeat(`Apparently Prides Osteria had a rough summer as evidenced by the almost empty dining room. \"Waitstaff\" was warm.\n\n`, 6) + `","date":"2016-01-30 02:18:30"}`)
	b.SetBytes(int64(len(line)))
	for i := 0; i < b.N; i++ {
		if err := Members(line, func(key []byte, v Value) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
