package tables

import "strconv"

// Section is the part of the report (SPEC §7) a table or figure belongs
// to. Its number is what results directories store (the JSON "section"
// of tables and figures), so a section keeps its number for good; the
// stages refer to sections by these names, never by number, and
// SectionList says once, in report order, what each one is called.
type Section int

// The report's sections. The numbered ones are SPEC §7's items 1–7.
const (
	SectionSimulation Section = 0 // simulation results (revisit simulate), after 7
	SectionCorpus     Section = 1 // what was read, kept and filtered
	SectionTopPages   Section = 2
	SectionTails      Section = 3 // survival and tail fits
	SectionScreen     Section = 4 // Poisson screen, ACF, Hurst
	SectionMethods    Section = 5 // method comparison and recommendation
	SectionEstimates  Section = 6 // estimates vs truth (figures)
	SectionPolicies   Section = 7 // policies, localized rates (NHPP), staleness
	SectionSchedule   Section = 8 // revisit schedules from estimated distributions (revisit schedule)

	// The estimate of real crawl logs (revisit estimate), where there is
	// no truth and the items are URLs, not pages.
	SectionInputs        Section = 20 // what the logs held, what was skipped and merged
	SectionTopURLs       Section = 21 // the URLs with the most visits
	SectionVerdict       Section = 22 // the Poisson verdict over the URLs
	SectionObservedCurve Section = 23 // estimated G_U and recovered F_U (figures)
)

// SectionInfo is a section with its title.
type SectionInfo struct {
	Section Section
	Title   string
}

// SectionList is every section in the order of the report, with its
// title (a new slice at each call).
func SectionList() []SectionInfo {
	return []SectionInfo{
		{SectionCorpus, "Corpus"},
		{SectionTopPages, "Top pages"},
		{SectionTails, "Tails"},
		{SectionScreen, "Poisson screen"},
		{SectionMethods, "Method comparison"},
		{SectionEstimates, "Estimates vs truth"},
		{SectionPolicies, "Policies and NHPP"},
		{SectionSchedule, "Revisit schedule"},
		{SectionInputs, "Inputs"},
		{SectionTopURLs, "Top URLs"},
		{SectionVerdict, "Poisson verdict"},
		{SectionObservedCurve, "Estimated G_U and F_U"},
		{SectionSimulation, "Simulation"},
	}
}

// Rank is s's place in the report: its index in SectionList, or after
// all of them for a section not in it ("Other").
func (s Section) Rank() int {
	l := SectionList()
	for i, si := range l {
		if si.Section == s {
			return i
		}
	}
	return len(l)
}

// Title is s's title, "Other" for a section not in SectionList.
func (s Section) Title() string {
	for _, si := range SectionList() {
		if si.Section == s {
			return si.Title
		}
	}
	return "Other"
}

// Numbered reports whether s is one of SPEC §7's numbered items, whose
// heading carries the number ("3 Tails").
func (s Section) Numbered() bool { return s >= SectionCorpus && s <= SectionPolicies }

// Heading is s's heading in the report: "3 Tails", "Simulation", "Other".
func (s Section) Heading() string {
	if s.Numbered() {
		return strconv.Itoa(int(s)) + " " + s.Title()
	}
	return s.Title()
}
