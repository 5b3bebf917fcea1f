package supervise

import "io"

// StdoutWriter is standard output as every command writes it: the
// summaries and tables a command prints, and what it was asked to print
// (generate -o -). A write that fails (a closed pipe: the reader of
// '| head' left; a full disk) is remembered, returned as a *StdoutError,
// and every later write fails at once without a system call. The failure
// never stops a command's work or its outputs: revisit ignores SIGPIPE
// (IgnoreSIGPIPE), commands print their summaries after committing or
// ignore the error, and the command line turns Err into ExitStdout once
// the command is done.
type StdoutWriter struct {
	W   io.Writer
	Err *StdoutError
}

func (s *StdoutWriter) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	n, err := s.W.Write(p)
	if err != nil {
		s.Err = &StdoutError{err}
		return n, s.Err
	}
	return n, nil
}

// StdoutError is a write to standard output that failed.
type StdoutError struct{ Err error }

func (e *StdoutError) Error() string { return "standard output: " + e.Err.Error() }
func (e *StdoutError) Unwrap() error { return e.Err }
