package mediawiki

import "testing"

// Without <siteinfo> the English defaults decide a title's namespace,
// including the names older dumps used for the same namespaces (MediaWiki
// still accepts them as aliases): "Image:" was the File namespace (6) until
// MediaWiki 1.14, "Project:" is the project namespace (4) on every wiki.
func TestDefaultNamespacesFromTitle(t *testing.T) {
	n := defaultNamespaces()
	for _, c := range []struct {
		title string
		ns    int32
		group string
	}{
		{"Image:Foo.jpg", 6, "File"},
		{"Image talk:Foo.jpg", 7, "File talk"},
		{"image_talk:Foo.jpg", 7, "File talk"},
		{"File:Foo.jpg", 6, "File"},
		{"Project:About", 4, "Wikipedia"},
		{"Project talk:About", 5, "Wikipedia talk"},
		{"Talk:Foo", 1, "Talk"},
		{"Imagery: a history", 0, MainGroup},
		{"Star Wars: A New Hope", 0, MainGroup},
	} {
		ns := n.FromTitle(c.title)
		if ns != c.ns || n.Group(ns) != c.group {
			t.Errorf("%q: ns %d group %q, want %d %q", c.title, ns, n.Group(ns), c.ns, c.group)
		}
	}
}
