package policy

import (
	"strings"
	"testing"
)

// ParseBudget and Downloads: a count up to the pages (with or without its
// unit /cycle), or a percentage rounded to the nearest integer and at
// least 1 (10 % of 905 = 90.5 → 91; 0.01 % of 100 = 0.01 → 1); a rate per
// unit of time, schedule's kind of budget, is refused with a message that
// names both.
func TestBudget(t *testing.T) {
	for _, c := range []struct {
		s     string
		pages int
		want  int
		bad   string // in the error of ParseBudget or Downloads; "" = none
	}{
		{"10%", 905, 91, ""},
		{"0.01%", 100, 1, ""},
		{"100%", 7, 7, ""},
		{"5", 10, 5, ""},
		{" 5 ", 10, 5, ""},
		{"5/cycle", 10, 5, ""},
		{"10/cycle", 10, 10, ""},
		{"11", 10, 0, "11 downloads per cycle exceeds the 10 pages"},
		{"11/cycle", 10, 0, "exceeds the 10 pages"},
		{"0%", 10, 0, "want a percentage in (0, 100]"},
		{"101%", 10, 0, "want a percentage in (0, 100]"},
		{"0", 10, 0, "want a positive number of downloads"},
		{"x", 10, 0, "want a positive number of downloads"},
		{"5/week", 10, 0, "R or R/cycle"},
		{"0/cycle", 10, 0, "want a positive number of downloads"},
		{"500/d", 1000, 0, "not per d"},
		{"200/h", 1000, 0, "schedule's --budget"},
	} {
		b, err := ParseBudget(c.s)
		var got int
		if err == nil {
			got, err = b.Downloads(c.pages)
		}
		switch {
		case c.bad == "" && (err != nil || got != c.want):
			t.Errorf("%q on %d pages: %d, %v; want %d", c.s, c.pages, got, err, c.want)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%q on %d pages: error %v, want one saying %q", c.s, c.pages, err, c.bad)
		}
	}
}

// Exceeds: only a count can exceed the pages.
func TestBudgetExceeds(t *testing.T) {
	for _, c := range []struct {
		s     string
		pages int64
		want  bool
	}{{"26", 25, true}, {"25", 25, false}, {"26/cycle", 25, true}, {"100%", 1, false}} {
		b, err := ParseBudget(c.s)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Exceeds(c.pages); got != c.want {
			t.Errorf("%q on %d pages: Exceeds %v, want %v", c.s, c.pages, got, c.want)
		}
	}
}
