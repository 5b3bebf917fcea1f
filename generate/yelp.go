package generate

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/revisit-dev/revisit/model"
)

// Yelp file names, as in the Yelp Open Dataset.
const (
	YelpReviewFile   = "yelp_academic_dataset_review.json"
	YelpBusinessFile = "yelp_academic_dataset_business.json"
)

// cities are the groups of generated businesses (picked with a heavy-tailed
// choice: the first cities get most businesses).
var cities = [][2]string{
	{"Philadelphia", "PA"}, {"Tucson", "AZ"}, {"Tampa", "FL"}, {"Indianapolis", "IN"},
	{"Nashville", "TN"}, {"New Orleans", "LA"}, {"Reno", "NV"}, {"Edmonton", "AB"},
	{"Saint Louis", "MO"}, {"Santa Barbara", "CA"}, {"Boise", "ID"}, {"Clearwater", "FL"},
}

var categories = []string{
	"Restaurants, Pizza", "Food, Coffee & Tea", "Nightlife, Bars", "Shopping, Books, Mags, Music & Video",
	"Beauty & Spas, Nail Salons", "Restaurants, Mexican", "Automotive, Auto Repair", "Hotels & Travel, Hotels",
}

var reviewTexts = []string{
	`Great place, friendly staff.`, `Would not come back.`, `Solid food, slow service.`,
	`Best coffee in town!`, `Okay. Nothing special.`, `Prices went up but still worth it.`,
}

// yelpWriter writes one review line per revision (2019+ review format,
// grouped by business) and one business line per page.
type yelpWriter struct {
	rev, biz io.Writer // biz may be nil
	buf, bb  []byte
	seed     uint64
	n        int64
}

// yelpPage is what the writer decided about a page: its business id, name
// and city, recorded in the truth.
type yelpPage struct {
	key, name, city string
}

func (x *yelpWriter) page(p *Page) (yelpPage, error) {
	r := model.NewRand(x.seed, uint64(p.Index)|cosmetic)
	var yp yelpPage
	id := appendYelpID(nil, r.Uint64(), r.Uint64())
	yp.key = string(id)
	c := cities[logUniformInt(r, len(cities))-1]
	yp.city = c[0]
	yp.name = "Generated Business " + strconv.Itoa(p.Index+1)
	cat := categories[r.IntN(len(categories))]
	b := x.buf[:0]
	starSum := 0
	for _, t := range p.Revisions {
		v := r.Uint64()
		stars := int(v%5) + 1
		starSum += stars
		b = append(b, `{"review_id":"`...)
		b = appendYelpID(b, r.Uint64(), r.Uint64())
		b = append(b, `","user_id":"`...)
		u := uint64(logUniformInt(r, 100000))
		b = appendYelpID(b, mix64(u^x.seed), mix64(u+x.seed))
		b = append(b, `","business_id":"`...)
		b = append(b, id...)
		b = append(b, `","stars":`...)
		b = strconv.AppendInt(b, int64(stars), 10)
		b = append(b, `.0,"useful":`...)
		b = strconv.AppendInt(b, int64(v>>8%4), 10)
		b = append(b, `,"funny":`...)
		b = strconv.AppendInt(b, int64(v>>12%2), 10)
		b = append(b, `,"cool":`...)
		b = strconv.AppendInt(b, int64(v>>16%3), 10)
		b = append(b, `,"text":"`...)
		b = append(b, reviewTexts[v>>24%uint64(len(reviewTexts))]...)
		b = append(b, `","date":"`...)
		b = appendTimestamp(b, t, ' ', false)
		b = append(b, "\"}\n"...)
		if len(b) > 1<<16 {
			if err := x.write(b); err != nil {
				return yp, err
			}
			b = b[:0]
		}
	}
	x.buf = b
	if err := x.write(b); err != nil {
		return yp, err
	}
	if x.biz == nil {
		return yp, nil
	}
	name, _ := json.Marshal(yp.name)
	bb := x.bb[:0]
	bb = append(bb, `{"business_id":"`...)
	bb = append(bb, id...)
	bb = append(bb, `","name":`...)
	bb = append(bb, name...)
	bb = append(bb, `,"address":"`...)
	bb = strconv.AppendInt(bb, int64(1+r.IntN(9999)), 10)
	bb = append(bb, ` Main St","city":"`...)
	bb = append(bb, c[0]...)
	bb = append(bb, `","state":"`...)
	bb = append(bb, c[1]...)
	bb = append(bb, `","postal_code":"`...)
	bb = strconv.AppendInt(bb, int64(10000+r.IntN(89999)), 10)
	bb = append(bb, `","latitude":0.0,"longitude":0.0,"stars":`...)
	half := (2*starSum + len(p.Revisions)/2) / max(len(p.Revisions), 1) // stars rounded to halves
	bb = strconv.AppendFloat(bb, float64(half)/2, 'f', 1, 64)
	bb = append(bb, `,"review_count":`...)
	bb = strconv.AppendInt(bb, int64(len(p.Revisions)), 10)
	bb = append(bb, `,"is_open":1,"attributes":null,"categories":`...)
	catJSON, _ := json.Marshal(cat)
	bb = append(bb, catJSON...)
	bb = append(bb, ",\"hours\":null}\n"...)
	x.bb = bb
	_, err := x.biz.Write(bb)
	return yp, err
}

func (x *yelpWriter) write(b []byte) error {
	n, err := x.rev.Write(b)
	x.n += int64(n)
	return err
}
