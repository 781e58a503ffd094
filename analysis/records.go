package analysis

import (
	"reflect"
	"sync"
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

// subtract takes the counts of b, an accumulator that counted only an
// unfinished game's in-game counters (never finish), back out of a.
func (a *acc) subtract(b *acc) {
	b.flush() // the engine's counters into b's counts, to be negated with them
	negate(reflect.ValueOf(b.tgt))
	negate(reflect.ValueOf(b.capt))
	negate(reflect.ValueOf(b.card))
	negate(reflect.ValueOf(b.fac))
	negate(reflect.ValueOf(&b.g).Elem())
	a.merge(b)
}

// negate negates every int64 in v (a struct, a slice of structs or of
// int64), so that a field added to the counts is taken back too.
func negate(v reflect.Value) {
	switch v.Kind() {
	case reflect.Int64:
		v.SetInt(-v.Int())
	case reflect.Slice:
		for i := range v.Len() {
			negate(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				negate(v.Field(i))
			}
		}
	}
}
