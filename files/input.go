package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"unicode"
)

// ReadCapped reads the input file name, refusing more than limit bytes (an
// input of any size — /dev/zero, a log given by mistake — would otherwise
// exhaust memory) and a folder. what describes the expected content for
// the messages ("a 'cardlab simulate --json' result").
func ReadCapped(name string, limit int64, what string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, pathErr(err))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not %s", name, what)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, pathErr(err))
	}
	defer f.Close()
	// Read into a buffer of the file's size (and one byte more, to see
	// the end): growing one by doubling would take twice the memory.
	r := io.LimitReader(f, limit+1)
	data := make([]byte, 0, min(max(st.Size(), 512), limit)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // a file that grew, or /dev/zero
		}
		n, rerr := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if rerr == io.EOF {
			break
		}
		if err = rerr; err != nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, pathErr(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: too large: more than %s at byte offset %d; %s is smaller", name, size(limit), limit, what)
	}
	return data, nil
}

func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// LineCol turns a byte offset of data into a 1-based line and column (in
// characters).
func LineCol(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	last := before[bytes.LastIndexByte(before, '\n')+1:]
	return line, 1 + len(bytes.Runes(last))
}

// NotJSONObject says what data holds when it cannot be a JSON object — the
// text tables a command prints without --json, say — and "" when it may
// be one: "begins with text (\"Simulation: …\"), not a JSON object".
func NotJSONObject(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] == '{' {
		return ""
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	r := []rune(string(bytes.TrimSpace(line)))
	if len(r) > 40 {
		r = append(r[:40], '…')
	}
	shown := strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || c == unicode.ReplacementChar {
			return '?'
		}
		return c
	}, string(r))
	if t[0] == '[' || t[0] == '"' || t[0] >= '0' && t[0] <= '9' || t[0] == '-' {
		return fmt.Sprintf("holds a JSON value that is not an object (it begins %q)", shown)
	}
	return fmt.Sprintf("holds text, not JSON: it begins %q (the tables a command prints without --json?)", shown)
}

// DecodeJSON decodes data, read from the file name, as exactly one JSON
// value into v: text after it is an error (a second value would otherwise
// be ignored, or a damaged file read in part). Errors are "name:line:col:
// message".
//
// Memory stays proportional to the file: valid JSON is decoded in place
// (json.Unmarshal, no second copy), after decodeCost has checked that the
// values it decodes into take at most maxCostRatio times its size — a
// result cardlab wrote takes about as much as its file; a file of small
// values that decode into large ones ("{}," a card) is refused first.
func DecodeJSON(name string, data []byte, v any) error {
	if !json.Valid(data) {
		return decodeStream(name, data, v) // says where and why
	}
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer {
		if c := decodeCost(data, t.Elem()); c > maxCostRatio*int64(len(data))/2+costSlack {
			return fmt.Errorf("%s: holds more values than a file cardlab writes: reading its %s would take about %s of memory", name, mib(int64(len(data))), mib(c))
		}
	}
	// The garbage of growing slices is collected as it comes, not let
	// pile up to the size of what is kept.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	if err := json.Unmarshal(data, v); err != nil {
		return decodeError(name, data, err)
	}
	return nil
}

// maxCostRatio/2 and costSlack bound the memory DecodeJSON lets a file
// take (decodeCost): results and shards cardlab writes take 0.8 to 0.9
// times their size; with the file itself and the collector's margin a
// read then stays under 4 times the file's size.
const (
	maxCostRatio = 3 // halves
	costSlack    = 4 << 20
)

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func decodeError(name string, data []byte, err error) error {
	at := func(off int64, format string, args ...any) error {
		line, col := LineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, args...))
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return at(se.Offset, "not valid JSON: %v", err)
	case errors.As(err, &te):
		return at(te.Offset, "%s has the wrong type: %s where %s belongs", te.Field, te.Value, te.Type)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: empty file", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return at(int64(len(data)), "the JSON ends too early (a truncated file?)")
	}
	return fmt.Errorf("%s: %v", name, err)
}

// decodeStream decodes invalid JSON with a Decoder, for its errors.
func decodeStream(name string, data []byte, v any) error {
	at := func(off int64, format string, args ...any) error {
		line, col := LineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return decodeError(name, data, err)
	}
	off := dec.InputOffset()
	rest := bytes.TrimLeft(data[off:], " \t\r\n")
	if len(rest) > 0 {
		return at(int64(len(data)-len(rest)), "text after the JSON value")
	}
	return nil
}
