// Package bug turns a panic — a bug in cardlab, never a user's mistake —
// into an error that says so and carries the stack for the report. An
// unrecovered panic would end the process with Go's exit status 2, which
// cardlab reserves for usage errors; every goroutine that can run engine or
// analysis code defers Catch.
package bug

import (
	"fmt"
	"runtime/debug"
)

// Error is a recovered panic.
type Error struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack
}

func (e *Error) Error() string {
	return fmt.Sprintf("internal error (please report this bug): %v", e.Value)
}

// Catch, deferred, turns a panic of the calling goroutine into *err (an
// *Error); an error already in *err is kept beside it.
func Catch(err *error) {
	if r := recover(); r != nil {
		e := &Error{Value: r, Stack: debug.Stack()}
		if *err != nil {
			*err = fmt.Errorf("%w (after: %v)", e, *err)
		} else {
			*err = e
		}
	}
}

// From turns the value of recover() into an *Error, or nil when there was
// no panic. Deferred as
//
//	defer func() { if err := bug.From(recover()); err != nil { … } }()
//
// where a goroutine reports errors some other way than by returning them.
func From(r any) error {
	if r == nil {
		return nil
	}
	return &Error{Value: r, Stack: debug.Stack()}
}
