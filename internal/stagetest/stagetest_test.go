package stagetest

import "testing"

func TestGrid(t *testing.T) {
	// ⌈1.2/0.5⌉ = 3: 0, 0.5, 1, 1.5.
	if g := Grid(0.5, 1.2); len(g) != 4 || g[3] != 1.5 {
		t.Errorf("Grid(0.5, 1.2) = %v", g)
	}
	if g := Grid(0.5, 1.0); len(g) != 3 || g[2] != 1 {
		t.Errorf("Grid(0.5, 1) = %v", g)
	}
}
