package progress_test

import (
	"bytes"
	"fmt"

	"github.com/revisit-dev/revisit/internal/progress"
)

func Example() {
	// Not a terminal and quiet: a stage reports its work and nothing is shown.
	var stderr bytes.Buffer
	d := progress.New(&stderr, "ingest", true)
	d.Start(1 << 20)
	d.Add(1<<20, 4<<20, 10, 1000)
	d.Finish()
	fmt.Println(progress.IsTerminal(&stderr), stderr.Len())
	// Output: false 0
}
