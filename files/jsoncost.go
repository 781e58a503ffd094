package files

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// decodeCost estimates the memory, in bytes, that decoding the valid JSON
// data into a value of type t allocates beyond data itself: each array
// element and map entry of the type it decodes into (slices counted twice,
// for their growth), strings, pointers followed, and values of unknown
// fields not at all (they are skipped). Small JSON can decode into large
// values — "{}," is one card of hundreds of bytes — so a file near the
// size cap could take gigabytes; DecodeJSON refuses it before decoding.
func decodeCost(data []byte, t reflect.Type) int64 {
	w := costWalker{data: data}
	w.space()
	return w.value(t)
}

type costWalker struct {
	data []byte
	i    int
}

func (w *costWalker) space() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\r', '\n':
			w.i++
		default:
			return
		}
	}
}

// str skips a string at w.i (the data is valid JSON) and returns its
// contents, escapes left as they are.
func (w *costWalker) str() []byte {
	start := w.i + 1
	w.i++
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case '\\':
			w.i += 2
			continue
		case '"':
			s := w.data[start:w.i]
			w.i++
			return s
		}
		w.i++
	}
	return nil
}

var (
	rawType   = reflect.TypeFor[json.RawMessage]()
	fieldsMap sync.Map // reflect.Type → map[string]reflect.Type
)

// fieldTypes maps a struct's JSON keys (lower case: encoding/json matches
// them without regard to case) to their field types, embedded structs'
// fields promoted.
func fieldTypes(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldsMap.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	var add func(t reflect.Type, depth int)
	add = func(t reflect.Type, depth int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && name == "" && depth < 8 {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					add(ft, depth+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := m[strings.ToLower(name)]; !dup || depth == 0 {
				m[strings.ToLower(name)] = f.Type
			}
		}
	}
	add(t, 0)
	fieldsMap.Store(t, m)
	return m
}

// value walks the value at w.i decoded into a t (nil: skipped) and
// returns what it allocates beyond t's own slot.
func (w *costWalker) value(t reflect.Type) int64 {
	if w.i >= len(w.data) {
		return 0
	}
	c := w.data[w.i]
	if c == 'n' { // null: nothing allocated
		w.i += 4
		return 0
	}
	if t != nil {
		switch {
		case t == rawType:
			start := w.i
			w.value(nil)
			return int64(w.i - start)
		case t.Kind() == reflect.Pointer:
			return int64(t.Elem().Size()) + w.value(t.Elem())
		case t.Kind() == reflect.Interface:
			if t.NumMethod() == 0 {
				return w.generic()
			}
			t = nil
		}
	}
	switch c {
	case '{':
		var cost int64
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = fieldTypes(t)
		}
		isMap := t != nil && t.Kind() == reflect.Map
		w.i++
		w.space()
		if w.data[w.i] == '}' {
			w.i++
			return 0
		}
		for {
			key := w.str()
			w.space()
			w.i++ // ':'
			w.space()
			switch {
			case isMap:
				cost += int64(len(key)) + 2*int64(t.Key().Size()+t.Elem().Size()) + 16 + w.value(t.Elem())
			case fields != nil:
				cost += w.value(fields[strings.ToLower(string(key))])
			default:
				w.value(nil)
			}
			w.space()
			if w.data[w.i] == '}' {
				w.i++
				return cost
			}
			w.i++ // ','
			w.space()
		}
	case '[':
		var cost int64
		var elem reflect.Type
		slice := false
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem, slice = t.Elem(), t.Kind() == reflect.Slice
		}
		w.i++
		w.space()
		if w.data[w.i] == ']' {
			w.i++
			return 0
		}
		for {
			if slice {
				cost += 2 * int64(elem.Size())
			}
			cost += w.value(elem)
			w.space()
			if w.data[w.i] == ']' {
				w.i++
				return cost
			}
			w.i++ // ','
			w.space()
		}
	case '"':
		s := w.str()
		if t != nil && (t.Kind() == reflect.String || t.Kind() == reflect.Slice) {
			return int64(len(s))
		}
		return 0
	}
	// A number, true or false: no allocation into a scalar.
	for w.i < len(w.data) && strings.IndexByte(",]} \t\r\n", w.data[w.i]) < 0 {
		w.i++
	}
	return 0
}

// generic is the cost of a value decoded into an interface (maps of any,
// slices of any, boxed strings and numbers).
func (w *costWalker) generic() int64 {
	switch w.data[w.i] {
	case '{':
		return 48 + w.value(reflect.TypeFor[map[string]any]())
	case '[':
		return 24 + w.value(reflect.TypeFor[[]any]())
	case '"':
		return 16 + int64(len(w.str()))
	}
	w.value(nil)
	return 8
}
