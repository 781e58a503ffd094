package cards

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Pos is a position in a ruleset file.
type Pos struct {
	File string // path relative to the ruleset directory
	Line int
	Col  int
}

// String formats the position as file:line:col, dropping the parts that are
// unknown (a column of 0, a line of 0), so whole-file problems read "file".
func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

// Error is one problem found in a ruleset. Pos.File carries the name as shown
// to the designer (prefix included), so editors can jump to it.
type Error struct {
	Pos Pos
	Msg string
}

// Error formats the problem as "file:line:col: msg", the form editors and
// terminals recognise as a link.
func (e *Error) Error() string {
	if p := e.Pos.String(); p != "" {
		return p + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList collects every problem of a load, because designers fix a batch
// of mistakes per edit cycle rather than one per run.
type ErrorList []*Error

// maxShown bounds ErrorList.Error so a badly broken file does not flood the
// terminal; the full list stays available to callers that range over it.
const maxShown = 10

// Error lists the first ten problems, one per line, and counts the rest.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == maxShown {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-maxShown)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the problems by file, line and column (stable, so problems at
// the same position keep the order they were found in).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Err returns the list as an error, or nil when it is empty, so that a nil
// ErrorList never becomes a non-nil error interface.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
