package csvout_test

import (
	"os"

	"github.com/revisit-dev/revisit/internal/csvout"
)

// A title that a spreadsheet would evaluate gets a leading "'"; a negative
// number does not.
func Example() {
	w := csvout.NewWriter(os.Stdout)
	w.Header("title", "rate")
	w.Text(`=HYPERLINK("http://x","y")`)
	w.Float(-1.25)
	w.End()
	w.Text("Anarchism, history")
	w.Float(0.5)
	w.End()
	w.Flush()
	// Output:
	// title,rate
	// "'=HYPERLINK(""http://x"",""y"")",-1.25
	// "Anarchism, history",0.5
}
