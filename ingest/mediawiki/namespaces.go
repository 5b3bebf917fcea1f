package mediawiki

import (
	"strconv"
	"strings"
)

// MainGroup is the group name of namespace 0, whose MediaWiki name is the
// empty string: "(Main)", as Special:AllPages labels it. The parentheses
// keep it from clashing with a real namespace name.
const MainGroup = "(Main)"

// englishNamespaces are MediaWiki's canonical English namespace names, used
// when a dump has no <siteinfo> (old Special:Export files).
var englishNamespaces = map[int32]string{
	-2: "Media", -1: "Special", 0: "",
	1: "Talk", 2: "User", 3: "User talk", 4: "Wikipedia", 5: "Wikipedia talk",
	6: "File", 7: "File talk", 8: "MediaWiki", 9: "MediaWiki talk",
	10: "Template", 11: "Template talk", 12: "Help", 13: "Help talk",
	14: "Category", 15: "Category talk", 100: "Portal", 101: "Portal talk",
	108: "Book", 109: "Book talk", 118: "Draft", 119: "Draft talk",
	710: "TimedText", 711: "TimedText talk", 828: "Module", 829: "Module talk",
}

// englishAliases are the other names MediaWiki accepts for namespaces of
// englishNamespaces; old dumps without <siteinfo> use them in titles
// ("Image:" named namespace 6 until MediaWiki 1.14).
var englishAliases = map[string]int32{"Image": 6, "Image talk": 7, "Project": 4, "Project talk": 5}

// defaultNamespaces are the English names and their aliases, for dumps
// without <siteinfo>.
func defaultNamespaces() *Namespaces {
	n := newNamespaces(englishNamespaces)
	for v, k := range englishAliases {
		n.byName[v] = k
		n.folded[strings.ToLower(v)] = k
	}
	return n
}

// Namespaces maps namespace numbers to names (from the dump's <siteinfo>, or
// the English defaults) and back.
type Namespaces struct {
	names  map[int32]string
	byName map[string]int32
	folded map[string]int32
}

func newNamespaces(names map[int32]string) *Namespaces {
	n := &Namespaces{names: names, byName: map[string]int32{}, folded: map[string]int32{}}
	for k, v := range names {
		if v == "" {
			continue
		}
		n.byName[v] = k
		n.folded[strings.ToLower(v)] = k
	}
	return n
}

// Name is the namespace's name ("" for 0).
func (n *Namespaces) Name(ns int32) (string, bool) {
	s, ok := n.names[ns]
	return s, ok
}

// Group is the page group SPEC §2 asks for: the namespace name, MainGroup
// for namespace 0, and "ns<N>" for a number the dump does not list.
func (n *Namespaces) Group(ns int32) string {
	if ns == 0 {
		return MainGroup
	}
	if s, ok := n.names[ns]; ok && s != "" {
		return s
	}
	return "ns" + strconv.Itoa(int(ns))
}

// FromTitle derives the namespace of a title for dumps without <ns> (schema
// 0.3, 0.4): the prefix before the first colon if it names a namespace
// (exactly, else case-insensitively, with underscores as spaces), else 0.
func (n *Namespaces) FromTitle(title string) int32 {
	i := strings.IndexByte(title, ':')
	if i <= 0 {
		return 0
	}
	p := strings.ReplaceAll(title[:i], "_", " ")
	if k, ok := n.byName[p]; ok {
		return k
	}
	if k, ok := n.folded[strings.ToLower(p)]; ok {
		return k
	}
	return 0
}

// EnglishNamespaces are MediaWiki's canonical English namespace names (and
// their old aliases), for sources that give namespace numbers without
// names (mediawiki_history dumps).
func EnglishNamespaces() *Namespaces { return defaultNamespaces() }
