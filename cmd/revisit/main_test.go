package main

import "testing"

// A usage error names the help of the subcommand it came from: after
// 'revisit run x --bogus' the flags to read are run's, not the root's.
func TestUsageHintNamesSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "x", "--bogus"}, "Run 'revisit run --help' for usage."},
		{[]string{"report", "-o"}, "Run 'revisit report --help' for usage."},
		{[]string{"rnu"}, "Run 'revisit --help' for usage."},
	} {
		root := newRoot()
		root.SetArgs(c.args)
		cmd, err := root.ExecuteC()
		if err == nil {
			t.Fatalf("revisit %v: no error", c.args)
		}
		if got := usageHint(cmd); got != c.want {
			t.Errorf("revisit %v: hint %q, want %q", c.args, got, c.want)
		}
	}
}
