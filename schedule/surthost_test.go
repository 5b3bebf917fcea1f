package schedule

import "testing"

// The host of a page comes from a URL title or from a SURT key, the urlkey
// of a Wayback CDX or Common Crawl CDXJ estimate.
func TestHostOfURLsAndSURTKeys(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"https://Example.COM./a", "example.com"},
		{"com,example)/page", "example.com"},
		{"com,example,www)/a?b=1", "www.example.com"},
		{"org,wikipedia,en)/wiki/foo", "en.wikipedia.org"},
		{"com,example:8080)/", "example.com"},
		{"com,example)", "example.com"},
		{"http://(com,example,www,)/a", "www.example.com"},
		{"192.168.1.1)/x", "192.168.1.1"},
		{"Anarchism", ""},
		{"Foo (band)/bar", ""},
		{"Foo)/bar", ""},
		{")/", ""},
		{"com,,example)/", ""},
		{"com,exa mple)/", ""},
		{"com,example)x", ""},
	} {
		if got := Host(tc.title); got != tc.want {
			t.Errorf("Host(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
