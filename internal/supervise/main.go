package supervise

import (
	"fmt"
	"os"
	"os/exec"
)

// Main is what a program's main does with its arguments, as an exit
// code: where there is a supervisor (Unix) it runs the program again as a
// supervised child process doing the work (Run: exit codes that survive
// an out-of-memory death) and returns the child's code, mapped; in the
// child, and where there is no supervisor, it returns work(args) as the
// child's code (ChildExit).
func Main(args []string, work func(args []string) int) int {
	if Supervised() {
		return ChildExit(work(args))
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "revisit: cannot start the worker process: cannot find this program (%v). Exit code %d.\n", err, ExitInternal)
		return ExitInternal
	}
	code, ok := Run(exec.Command(self, args...))
	if !ok {
		return ExitInternal // Run said why, in one line
	}
	return code
}
