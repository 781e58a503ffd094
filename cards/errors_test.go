package cards

import (
	"fmt"
	"strings"
	"testing"
)

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Pos{"a.yaml", 3, 7}, "bad"}, "a.yaml:3:7: bad"},
		{Error{Pos{"a.yaml", 3, 0}, "bad"}, "a.yaml:3: bad"},
		{Error{Pos{"a.yaml", 0, 0}, "bad"}, "a.yaml: bad"},
		{Error{Pos{}, "bad"}, "bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list is a non-nil error")
	}
	for i := 12; i > 0; i-- {
		l = append(l, &Error{Pos{"b.yaml", i, 1}, fmt.Sprint("e", i)})
	}
	l = append(l, &Error{Pos{"a.yaml", 0, 0}, "first"})
	l.Sort()
	lines := strings.Split(l.Err().Error(), "\n")
	if len(lines) != 11 || lines[0] != "a.yaml: first" || lines[1] != "b.yaml:1:1: e1" || lines[10] != "(and 3 more errors)" {
		t.Errorf("list:\n%s", l.Error())
	}
}
