package yelp

import (
	"bytes"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
)

// Kinds of Yelp files.
const (
	KindReview   = "review"
	KindTip      = "tip"
	KindCheckin  = "checkin"
	KindBusiness = "business"
)

// shape is what the first record of a file tells about its kind.
type shape struct {
	typ                                          string // the old format's "type" field
	businessID, reviewID, userID, date, name     bool
	city, categories, checkinInfo, text, address bool
	timeTable                                    bool // 2017-2018 check-ins: "time": {"Monday": {"0:00": 1, …}}
}

func (s *shape) member(key []byte, v jsonscan.Value) {
	switch string(key) {
	case "type":
		if v.Kind == jsonscan.String {
			s.typ = string(v.Str())
		}
	case "business_id":
		s.businessID = true
	case "review_id":
		s.reviewID = true
	case "user_id":
		s.userID = true
	case "date":
		s.date = true
	case "name":
		s.name = true
	case "city":
		s.city = true
	case "categories":
		s.categories = true
	case "checkin_info":
		s.checkinInfo = true
	case "time":
		s.timeTable = v.Kind == jsonscan.Object
	case "text":
		s.text = true
	case "address", "full_address":
		s.address = true
	}
}

// kind names the file's kind from its first record, "" if it is no Yelp
// review, tip, check-in or business record.
func (s *shape) kind() string {
	switch s.typ {
	case KindReview, KindTip, KindCheckin, KindBusiness:
		return s.typ
	case "":
	default:
		return "" // user, …
	}
	switch {
	case !s.businessID:
		return ""
	case s.reviewID:
		return KindReview
	case s.checkinInfo, s.timeTable && !s.date:
		return KindCheckin
	case s.name && (s.city || s.categories || s.address):
		return KindBusiness
	case s.date && s.userID:
		return KindTip // 2019+ tips: user_id, business_id, text, date, compliment_count
	case s.date:
		return KindCheckin // 2019+ check-ins: business_id, date
	}
	return ""
}

// aggregated reports the old check-in formats (weekday/hour counts in
// checkin_info, ≤2016, or in time, 2017-2018; no timestamps).
func (s *shape) aggregated() bool { return s.checkinInfo || !s.date }

// Sniff tells whether firstLine is the first record of a Yelp file and of
// which kind: "review", "tip", "checkin" or "business". It recognises the
// ≤2016 format by its "type" field and the 2019+ format by its fields
// (review_id; business_id with date and user_id for tips; business_id and
// a date list for check-ins; name and city for businesses). The line may be
// cut short: the members before the cut are enough.
func Sniff(firstLine []byte) (kind string, ok bool) {
	var s shape
	firstLine = bytes.TrimPrefix(firstLine, []byte("\ufeff"))
	_ = jsonscan.Members(firstLine, func(key []byte, v jsonscan.Value) error {
		s.member(key, v)
		return nil
	})
	k := s.kind()
	return k, k != ""
}
