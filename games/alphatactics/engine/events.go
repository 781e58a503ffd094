package engine

// EventKind names what happened.
type EventKind uint8

const (
	EvRoundStart     EventKind = iota // Player begins; Value rows
	EvTargetLaid                      // Row, Target
	EvDrawn                           // Player drew Card
	EvReshuffle                       // Player's discard pile became the draw pile; Value cards
	EvPlaced                          // Player placed Card at Row/Pos; FaceUp; Value 1 when played without effect
	EvShielded                        // Player's shield Card lies on Row/Pos
	EvRevealed                        // Card at Row/Pos turned face up
	EvFired                           // Card's effect ran
	EvBlocked                         // Card's effect did not run; Reason
	EvFizzled                         // Card's effect could do nothing
	EvRemoved                         // Card at Row/Pos went to its owner's discard pile
	EvMoved                           // Card moved to Row/Pos (Value: the row it came from)
	EvPass                            // Player passed
	EvDiscarded                       // Player discarded Card
	EvSpied                           // Player saw every opponent's hand
	EvBid                             // Player decided a sealed Negotiations bid: Card, or -1 for no bid (both hidden from the table until EvBidRevealed)
	EvNegotiated                      // Player took Target of Row by Negotiations; Value winning power
	EvDeploymentEnd                   // Player ended the Deployment Phase
	EvShieldsRemoved                  // Reveal Phase began; Value shields removed
	EvRowWon                          // Player won Target of Row; Value power; Reason
	EvRowUnclaimed                    // nobody took Target of Row (no cards); Value 1 if it went back under the pile
	EvRoundEnd                        // round over
	EvGameEnd                         // Value: number of winners
	EvBidRevealed                     // every bidder at once: Player's sealed Negotiations bid Card is shown (-1: made no bid)
)

var eventNames = [...]string{"round_start", "target_laid", "drawn", "reshuffle", "placed", "shielded", "revealed",
	"fired", "blocked", "fizzled", "removed", "moved", "pass", "discarded", "spied", "bid", "negotiated",
	"deployment_end", "shields_removed", "row_won", "row_unclaimed", "round_end", "game_end", "bid_revealed"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// Reason explains a blocked effect or how a row was won.
type Reason uint8

const (
	ReasonNone         Reason = iota
	ReasonDeactivated         // a Deactivated marker covers the effect
	ReasonUnderBlocker        // a blocker ship above blocks the row beneath it
	ReasonScout               // revealed without effect by a scout ship
	ReasonPower               // highest combat power
	ReasonCombo               // a Diplomat combination wins regardless of power
	ReasonTieTop              // tied, and this player's card lies highest
	ReasonComboTie            // several combinations, this player's card lies highest
)

var reasonNames = [...]string{"", "deactivated", "under_blocker", "scout", "power", "combo", "tie_top_card", "combo_tie_top_card"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// Event is one thing that happened, sent to an Observer. Unused fields are
// -1 (Row, Pos, Card, Target) or 0.
type Event struct {
	Kind   EventKind
	Round  int8
	Player int8
	Row    int8
	Pos    int8
	FaceUp bool
	Reason Reason
	Card   int16 // card definition
	Target int16 // target index
	Value  int32
}

// Observer receives events. The engine calls it synchronously; with no
// observer attached nothing is built.
type Observer interface {
	OnEvent(s *State, e Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(s *State, e Event)

// OnEvent calls f.
func (f ObserverFunc) OnEvent(s *State, e Event) { f(s, e) }

// emit completes e's defaults and sends it.
func (s *State) emit(e Event) {
	if s.obs == nil {
		return
	}
	e.Round = int8(s.round)
	s.obs.OnEvent(s, e)
}

// ev starts an event with the "unused" markers set.
func ev(k EventKind, p int) Event {
	return Event{Kind: k, Player: int8(p), Row: -1, Pos: -1, Card: -1, Target: -1}
}
