package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/cardlab/cardlab/game"
)

// recordSink hands the records of finished games to the Record callback in
// game order (the order of the shard's games, t = 0, 1, …) while workers
// finish them out of order. A worker takes a token before it takes a game
// and the token comes back when that game's record is handed on, so at most
// window records ever wait: memory does not grow with the number of games.
// The earliest game waiting is always in play by some worker, so the tokens
// cannot run out for good.
type recordSink struct {
	fn     func(*GameRecord) error
	cancel func()
	done   <-chan struct{} // the run is cancelled
	tokens chan struct{}

	mu      sync.Mutex
	next    int                 // the game handed on next
	waiting map[int]*GameRecord // finished games after next; nil: skipped
	err     error
}

func newRecordSink(fn func(*GameRecord) error, window int, done <-chan struct{}, cancel func()) *recordSink {
	s := &recordSink{fn: fn, cancel: cancel, done: done, tokens: make(chan struct{}, window), waiting: map[int]*GameRecord{}}
	for range window {
		s.tokens <- struct{}{}
	}
	return s
}

// acquire takes a token for the next game; false when the run is cancelled
// or the sink has failed.
func (s *recordSink) acquire() bool {
	select {
	case <-s.tokens:
	case <-s.done:
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err == nil
}

// put hands on the record of game t (and those waiting behind it).
func (s *recordSink) put(t int, g *GameRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting[t] = g
	s.flush(false)
}

// skip marks game t as not counted (abandoned): the games after it are
// handed on without it.
func (s *recordSink) skip(t int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting[t] = nil
	s.flush(false)
}

// close hands on every record still waiting: after a cancelled run the
// games never finished leave gaps, and the records hold exactly the games
// counted.
func (s *recordSink) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush(true)
}

func (s *recordSink) flush(all bool) {
	for len(s.waiting) > 0 {
		g, ok := s.waiting[s.next]
		if !ok {
			if !all {
				return
			}
			s.next++
			continue
		}
		delete(s.waiting, s.next)
		s.next++
		if g != nil && s.err == nil {
			if s.err = s.fn(g); s.err != nil {
				s.cancel()
			}
		}
		select {
		case s.tokens <- struct{}{}:
		default:
		}
	}
}

// MarshalJSON writes the record's core keys with the game's integers after
// "vp", so Alpha Tactics' records keep the keys and order they always had.
func (g GameRecord) MarshalJSON() ([]byte, error) {
	type core struct {
		Index     int        `json:"index"`
		Seed      uint64     `json:"seed"`
		Factions  []string   `json:"factions"`
		Bots      []string   `json:"bots"`
		StartSeat int        `json:"start_seat"`
		Winners   []string   `json:"winners"`
		VP        []VPRecord `json:"vp"`
	}
	// Without HTML escaping, which encoding/json applies to the result
	// itself when asked (see writeString).
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(core{g.Index, g.Seed, g.Factions, g.Bots, g.StartSeat, g.Winners, g.VP}); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	out := bytes.NewBuffer(b[:len(b)-1])
	for _, n := range g.Game {
		out.WriteByte(',')
		writeKey(out, n.Key)
		out.WriteString(strconv.Itoa(n.Value))
	}
	fmt.Fprintf(out, `,"decisions":%d}`, g.Decisions)
	return out.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes: the core's keys, and every
// other key, an integer, as the game's.
func (g *GameRecord) UnmarshalJSON(data []byte) error {
	*g = GameRecord{}
	return decodeObject(data, func(dec *json.Decoder, key string) error {
		switch key {
		case "index":
			return dec.Decode(&g.Index)
		case "seed":
			return dec.Decode(&g.Seed)
		case "factions":
			return dec.Decode(&g.Factions)
		case "bots":
			return dec.Decode(&g.Bots)
		case "start_seat":
			return dec.Decode(&g.StartSeat)
		case "winners":
			return dec.Decode(&g.Winners)
		case "vp":
			return dec.Decode(&g.VP)
		case "decisions":
			return dec.Decode(&g.Decisions)
		}
		var x int
		err := dec.Decode(&x)
		g.Game = append(g.Game, game.Named{Key: key, Value: x})
		return err
	})
}

// Int is the game's integer key of the record (Alpha Tactics: "rounds").
func (g *GameRecord) Int(key string) (int, bool) { return namedInt(g.Game, key) }

func namedInt(ns []game.Named, key string) (int, bool) {
	for _, n := range ns {
		if n.Key == key {
			return n.Value, true
		}
	}
	return 0, false
}

// MarshalJSON writes "faction" and the game's breakdown, or "total" alone.
func (v VPRecord) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	writeKey(&b, "faction")
	writeString(&b, v.Faction)
	named := v.Named
	if len(named) == 0 {
		named = []game.Named{{Key: "total", Value: v.Total}}
	}
	for _, n := range named {
		b.WriteByte(',')
		writeKey(&b, n.Key)
		b.WriteString(strconv.Itoa(n.Value))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *VPRecord) UnmarshalJSON(data []byte) error {
	*v = VPRecord{}
	err := decodeObject(data, func(dec *json.Decoder, key string) error {
		if key == "faction" {
			return dec.Decode(&v.Faction)
		}
		var x int
		err := dec.Decode(&x)
		v.Named = append(v.Named, game.Named{Key: key, Value: x})
		if key == "total" {
			v.Total = x
		}
		return err
	})
	if len(v.Named) == 1 && v.Named[0].Key == "total" {
		v.Named = nil // the core's record: "total" alone
	}
	return err
}

// Int is the seat's integer key (Alpha Tactics: "target_vp", …).
func (v *VPRecord) Int(key string) (int, bool) { return namedInt(v.Named, key) }

// decodeObject calls field for every key of the JSON object data, in
// order, to decode its value; a key given twice is an error.
func decodeObject(data []byte, field func(dec *json.Decoder, key string) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	return eachKey(dec, func(key string) error { return field(dec, key) })
}

// eachKey reads the JSON object next on dec, calling field for every key,
// in order, to decode its value (its error is prefixed by the key); a key
// given twice is an error. It reads the closing brace too.
func eachKey(dec *json.Decoder, field func(key string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		key, err := keyToken(dec)
		if err != nil {
			return err
		}
		if seen[key] {
			return fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		if err := field(key); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	_, err := dec.Token()
	return err
}
