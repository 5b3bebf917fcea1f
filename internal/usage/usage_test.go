package usage

import (
	"errors"
	"fmt"
	"testing"
)

// Bad usage is told apart from any other error however deeply it is
// wrapped, and its message is the wrapped error's.
func TestIs(t *testing.T) {
	err := fmt.Errorf("replay: %w", Errorf("--h %g: want > 0", -1.0))
	if !Is(err) {
		t.Errorf("Is(%v) = false for wrapped bad usage", err)
	}
	if err.Error() != "replay: --h -1: want > 0" {
		t.Errorf("message %q", err)
	}
	if Is(errors.New("page 3: bad timestamp")) || Is(nil) {
		t.Error("Is is true for bad input or nil")
	}
}
