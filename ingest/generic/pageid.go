package generic

import "hash/fnv"

// PageID is the stable page id of an object known by a string id (a Yelp
// business_id, a file path, a wiki edition): the 64-bit FNV-1a hash of the
// id's bytes with the top bit cleared, so it is a non-negative int64. The
// same string gets the same id in every file and every run, so a business
// read from the review, tip and check-in files of one dataset is one page.
// Distinct ids collide with probability about n²/2⁶⁴ (1e-9 for 150,000
// businesses); the readers detect collisions inside one input and report
// them as errors, and the dataset writer can detect them across inputs.
func PageID(id string) int64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int64(h.Sum64() &^ (1 << 63))
}
