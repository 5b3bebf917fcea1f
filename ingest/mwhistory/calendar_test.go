package mwhistory

import "testing"

// The calendar check of ParseTimestamp (internal/units): values from GNU
// date, date -u -d '2024-02-29 00:00:00' +%s.
func TestParseTimestampCalendar(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"2024-02-29 00:00:00", 1709164800}, {"20240229000000", 1709164800},
		{"2001-01-15T02:12:21Z", 979524741}, {"2000-12-31 23:59:59.9", 978307199},
	} {
		if got, err := ParseTimestamp([]byte(c.in)); err != nil || got != c.want {
			t.Errorf("ParseTimestamp(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"2023-02-29 00:00:00", "2024-04-31 00:00:00", "19001329000000", "2100-02-29 12:00:00"} {
		if got, err := ParseTimestamp([]byte(in)); err == nil {
			t.Errorf("ParseTimestamp(%q) = %d, want an error", in, got)
		}
	}
}
