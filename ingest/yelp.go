package ingest

import (
	"strings"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/ingest/yelp"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/series"
)

// Yelp kinds as the driver names them (also in the manifest's formats).
const (
	KindYelpBusiness = "yelp-" + yelp.KindBusiness
	yelpPrefix       = "yelp-"
)

// sniffYelp recognises a Yelp review, tip, check-in or business file by its
// first record.
func sniffYelp(head []byte) (string, bool) {
	k, ok := yelp.Sniff(firstLine(head))
	if !ok {
		return "", false
	}
	return yelpPrefix + k, true
}

func isYelp(kind string) bool { return strings.HasPrefix(kind, yelpPrefix) }

func (d *driver) newYelpReader(r *decompress.Reader, name, kind string) (source.Reader, error) {
	return yelp.NewReader(d.live, d.sourceOptions(name))
}

// readBusinesses reads a Yelp business file (in a goroutine of its own:
// it calls no Progress method). The join is done when the
// merged Yelp pages are written, after every input, so the business file
// may come before or after the review, tip and check-in files (in a tar or
// on the command line).
func (d *driver) readBusinesses(r *decompress.Reader, name string) error {
	bs, err := yelp.ReadBusinesses(d.live, d.sourceOptions(name))
	if err != nil {
		return err
	}
	if d.businesses == nil {
		d.businesses = yelp.Businesses{}
	}
	for id, b := range bs {
		d.businesses[id] = b
	}
	return nil
}

// yelpIDTitlesNote is the manifest's yelp_titles without a business file.
const yelpIDTitlesNote = "business_id (no business file among the inputs)"

// joinBusiness gives a Yelp page (of the given kind) its business's name as
// title and city as group (SPEC §1.2) when the business file was among the
// inputs; without one the title stays the business_id, which is counted so
// that the summary can say so.
func (d *driver) joinBusiness(p *series.RawPage, kind string) {
	if !isYelp(kind) {
		return
	}
	if d.businesses == nil {
		d.yelpIDTitles++
		return
	}
	b, ok := d.businesses[p.Title] // the title is the business_id until joined
	if !ok {
		d.yelpUnjoined++
		return
	}
	d.yelpJoined++
	if b.Name != "" {
		p.Title = b.Name
	}
	p.Group = b.City
}
