package analysis

import "fmt"

// StageError is an error of the analysis itself, as opposed to one it
// passes on unchanged (a dataset that does not open, a results directory
// that may not be replaced): its message starts with "analyze: ", so a
// caller that names the stage (run) tells by its type that it need not.
type StageError struct{ Err error }

func (e *StageError) Error() string { return "analyze: " + e.Err.Error() }

func (e *StageError) Unwrap() error { return e.Err }

// errorf is a *StageError of fmt.Errorf(format, a...).
func errorf(format string, a ...any) error { return &StageError{fmt.Errorf(format, a...)} }
