package files

import (
	"bytes"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// bulky is a type whose elements are large beside their JSON: "{}" is
// one card of 1 KiB.
type bulky struct {
	Name  string                   `json:"name"`
	Cards []struct{ A [128]int64 } `json:"cards"`
	Index map[string]*struct {
		B [16]int64
		S []string
	} `json:"index"`
	K     []int           `json:"k"`
	Extra any             `json:"extra"`
	Embed                 // promoted fields
	Raw   json.RawMessage `json:"raw"`
}

var typeOfBulky = reflect.TypeFor[bulky]()

type Embed struct {
	Promoted []int64 `json:"promoted"`
}

// repeat is a JSON document whose field holds n copies of elem.
func repeat(field, elem string, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"name": "x", "` + field + `": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elem)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// TestDecodeJSONRefusesBloat: a file of small values that would decode into
// far more memory than its size — the 63 MiB result taking 1.26 GB
// — is refused before decoding; a file whose values take about its size is
// decoded.
func TestDecodeJSONRefusesBloat(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"empty cards", repeat("cards", "{}", 1<<20)},
		{"small ints", repeat("k", "1", 4<<20)},
		{"promoted", repeat("promoted", "1", 4<<20)},
		{"map of pointers", []byte(`{"index": {` + strings.Repeat(`"a":{},`, 1<<18) + `"b":{}}}`)},
		{"generic", []byte(`{"extra": [` + strings.Repeat(`{},`, 1<<21) + `{}]}`)},
	} {
		var v bulky
		err := DecodeJSON("f", c.data, &v)
		if err == nil || !strings.Contains(err.Error(), "holds more values than a file cardlab writes") {
			t.Errorf("%s: %v", c.name, err)
		}
		if v.Cards != nil || v.K != nil || v.Index != nil {
			t.Errorf("%s: decoded although refused", c.name)
		}
	}
	// Values about the size of their JSON: decoded.
	for _, data := range [][]byte{
		repeat("k", "1234567890123456", 1<<16),
		[]byte(`{"name": "` + strings.Repeat("n", 8<<20) + `", "raw": {"a": [1, 2, {"b": null}]}}`),
		append(repeat("k", "1", 1000), bytes.Repeat([]byte(" "), 1<<20)...),
	} {
		var v bulky
		if err := DecodeJSON("f", data, &v); err != nil {
			t.Errorf("refused: %v", err)
		}
	}
}

// TestDecodeCostMatchesAllocation: the estimate is of the order of what
// decoding allocates, so the bound means what it says.
func TestDecodeCostMatchesAllocation(t *testing.T) {
	for _, data := range [][]byte{
		repeat("k", "1", 1<<16),
		repeat("cards", "{}", 1<<10),
		[]byte(`{"index": {` + strings.Repeat(`"a":{"S":["xy"]},`, 1<<12) + `"b":{}}}`),
		[]byte(`{"extra": [` + strings.Repeat(`{"a": "b"},`, 1<<12) + `{}]}`),
	} {
		var v bulky
		json.Unmarshal(data, &v) // type caches warmed
		est := decodeCost(data, typeOfBulky)
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		v = bulky{}
		json.Unmarshal(data, &v)
		runtime.ReadMemStats(&m1)
		got := int64(m1.TotalAlloc - m0.TotalAlloc)
		if est < got/3 || est > 3*got {
			t.Errorf("%.40s…: estimated %d bytes, decoding allocated %d", data, est, got)
		}
	}
}

// FuzzDecodeJSON: any input is decoded or refused with an error, never a
// panic (the cost walker reads only valid JSON, of any shape).
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"cards": [{}, {"A": [1]}], "index": {"a": {"S": ["x"]}}, "extra": [1, "a", {"b": null}], "raw": [1]}`,
		`{"K": [1, 2], "promoted": [3], "NAME": "\"\\u00e9"}`, `[]`, `"x"`, `null`, `{"extra": {"a": [[], {}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v bulky
		_ = DecodeJSON("f", data, &v)
		var m map[string]any
		_ = DecodeJSON("f", data, &m)
	})
}
