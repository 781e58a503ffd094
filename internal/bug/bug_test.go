package bug

import (
	"errors"
	"strings"
	"testing"
)

func TestCatch(t *testing.T) {
	f := func() (err error) {
		defer Catch(&err)
		var s []int
		_ = s[3]
		return nil
	}
	err := f()
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a *bug.Error", err)
	}
	if !strings.Contains(err.Error(), "internal error (please report this bug): runtime error: index out of range") {
		t.Errorf("message %q", err)
	}
	if !strings.Contains(string(be.Stack), "bug.TestCatch") {
		t.Errorf("the stack does not name the panicking function:\n%s", be.Stack)
	}
	ok := func() (err error) {
		defer Catch(&err)
		return nil
	}
	if err := ok(); err != nil {
		t.Errorf("no panic: got %v", err)
	}
}
