package analysis

import (
	"bytes"
	"encoding/gob"
	"maps"
	"testing"
)

// A shard's partial.gob depends only on its data: the survival bins, a
// map, are written in key order (gob alone writes a map in Go's random
// iteration order), and read back as they were.
func TestPartialBinsDeterministic(t *testing.T) {
	bins := survBins{}
	for k := -40; k < 60; k++ {
		bins[k] = int64(k*k + 1)
	}
	enc := func() []byte {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(&Partial{Format: PartialFormat, Bins: bins}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := enc()
	for i := 0; i < 20; i++ {
		if !bytes.Equal(enc(), first) {
			t.Fatalf("encoding %d differs from the first", i)
		}
	}
	var p Partial
	if err := gob.NewDecoder(bytes.NewReader(first)).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(p.Bins, bins) {
		t.Fatalf("bins read back differ: %v", p.Bins)
	}
}
