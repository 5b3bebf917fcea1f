// Package jsonscan is a small validating scanner for one JSON value held in
// memory: it walks the members of an object or the elements of an array,
// hands each value over as raw bytes, decodes strings on request and skips
// everything else without building values, so the ingest readers can pull
// two fields out of a long review line at memory speed.
//
// It is not a general JSON decoder: it does not build maps or structs, and
// it accepts exactly the texts encoding/json accepts (json.Valid) so that
// its fuzz test can use encoding/json as the oracle.
package jsonscan
