// Package usage holds the one error type for a failure that is the
// user's, not the input's: a bad flag or option, shards that do not form
// one run, a selection that cannot be built. Every stage returns it and
// the command line maps it to exit code 2; it is not for bad input (exit
// 1); an output path revisit refuses to replace is Refused.
package usage

import (
	"errors"
	"fmt"
)

// Error is bad usage: an option, an argument or a set of inputs the user
// chose that no work can come of. Callers test for it with errors.As.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is bad usage with the message of fmt.Errorf(format, a...).
func Errorf(format string, a ...any) error { return &Error{fmt.Errorf(format, a...)} }

// Is reports whether err is or wraps bad usage.
func Is(err error) bool {
	var e *Error
	return err != nil && errors.As(err, &e)
}

// Refused is an output path revisit refuses to write because it holds
// something revisit did not write (atomicdir.RefusedError and the errors
// of checking it): the user's to resolve, exit code 2 like bad usage, but
// without the pointer to --help.
type Refused struct{ Err error }

func (e *Refused) Error() string { return e.Err.Error() }
func (e *Refused) Unwrap() error { return e.Err }

// IsRefused reports whether err is or wraps a Refused output.
func IsRefused(err error) bool {
	var e *Refused
	return err != nil && errors.As(err, &e)
}
