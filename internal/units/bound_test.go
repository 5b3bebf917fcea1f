package units

import (
	"testing"
)

// ParseBound reads what ParseStart reads (TestParseStart checks those
// times against date(1)), "" as no bound, and names what it wants
// otherwise.
func TestParseBound(t *testing.T) {
	for _, in := range []string{"2024-02-29", "2001-01-15T02:12:21Z", "2001-01-15T04:12:21+02:00", "2001-01-15T02:12:21", "2001-01-15 02:12:21", "2001-01-15T02:12:21.5Z"} {
		want, werr := ParseStart(in)
		got, err := ParseBound(in)
		if err != nil || werr != nil || !got.Equal(want) || got.Location() != want.Location() {
			t.Errorf("ParseBound(%q) = %v, %v; ParseStart gives %v, %v", in, got, err, want, werr)
		}
	}
	if got, err := ParseBound(""); err != nil || !got.IsZero() {
		t.Errorf(`ParseBound("") = %v, %v; want the zero time`, got, err)
	}
	_, err := ParseBound("15/01/2001")
	if want := `"15/01/2001" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`; err == nil || err.Error() != want {
		t.Errorf("ParseBound(15/01/2001): %v, want %s", err, want)
	}
}
