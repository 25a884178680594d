// Package proto is the wire protocol between calcsol and a strategy plugin:
// the gRPC service generated from strategy.proto (committed, so that a build
// needs no protoc), the go-plugin handshake, and the layout of the two packed
// byte blobs that carry a batch of observations and a batch of decisions.
// docs/plugins.md describes the layouts for authors in other languages.
package proto

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/calcsol/calcsol/solver"
)

// Version is the protocol version: go-plugin's application protocol
// version, sent in the handshake. A plugin built for another version is
// refused at start.
const Version = 1

// The magic cookie go-plugin sets in a plugin's environment, so that a
// plugin program started by hand says it is a plugin rather than hanging.
const (
	MagicCookieKey   = "CALCSOL_PLUGIN_MAGIC_COOKIE"
	MagicCookieValue = "d6a1b1c2-calculation-strategy"
)

// PluginName is the name the host dispenses the strategy under.
const PluginName = "strategy"

// FirstDecision is the flag bit of an observation that is its game's first
// decision: a plugin that keeps state per game starts it here.
const FirstDecision = 1

// Delta is the flag bit of a delta record, sent only to a plugin that asked
// for them (StartResponse.deltas): the game went on from the plugin's own
// last answer for it, and instead of the position the record carries one
// byte, the rank of the card drawn now (0: none). The position is the last
// one of the game after the move the plugin answered, with that card drawn
// if the move placed the card drawn before.
const Delta = 2

// An observation record is: game (8 bytes, little-endian), seed (8 bytes,
// little-endian), flags (1), position length n (1), position (n bytes, the
// layout of solver.Position.MarshalBinary).
const obsHeader = 8 + 8 + 1 + 1

// AppendObservation appends one observation record to b: the game, its seed,
// the flags and what the player sees of v. It writes the bytes
// Position.MarshalBinary writes, without allocating.
func AppendObservation(b []byte, game, seed uint64, flags byte, v solver.View) []byte {
	b = binary.LittleEndian.AppendUint64(b, game)
	b = binary.LittleEndian.AppendUint64(b, seed)
	b = append(b, flags, 0)
	at := len(b)
	b = AppendPosition(b, v)
	b[at-1] = byte(len(b) - at)
	return b
}

// AppendDelta appends a delta record for game: its seed and drawn, the
// rank of the card drawn now (0 if none).
func AppendDelta(b []byte, game, seed uint64, drawn solver.Rank) []byte {
	b = binary.LittleEndian.AppendUint64(b, game)
	b = binary.LittleEndian.AppendUint64(b, seed)
	return append(b, Delta, 1, byte(drawn))
}

// AppendPosition appends what Position.MarshalBinary writes for v, without
// allocating.
func AppendPosition(b []byte, v solver.View) []byte {
	r := v.Rules()
	pre := byte(0)
	if r.Preplaced {
		pre = 1
	}
	b = append(b, byte(r.Stacks), pre, byte(len(r.Names)))
	b = append(b, r.Names...)
	b = append(b, byte(v.Drawn()), byte(v.StockLen()))
	for x := 1; x <= solver.Tables; x++ {
		b = append(b, byte(v.Placed(x)))
	}
	for k := solver.Rank(1); k <= solver.NumRanks; k++ {
		b = append(b, byte(v.Remaining(k)))
	}
	for s := range r.Stacks {
		h := v.Height(s)
		b = append(b, byte(h))
		for i := range h {
			b = append(b, byte(v.StackCard(s, i)))
		}
	}
	return b
}

// Observation is one decoded observation record.
type Observation struct {
	Game, Seed uint64
	Flags      byte
	// Position is the encoded position (solver.DecodePosition reads it); it
	// aliases the blob. In a delta record (Flags&Delta) it is one byte, the
	// rank drawn now.
	Position []byte
}

var errShort = errors.New("truncated record")

// ReadObservation reads the record at the start of b and returns the rest.
func ReadObservation(b []byte) (Observation, []byte, error) {
	if len(b) < obsHeader {
		return Observation{}, nil, fmt.Errorf("observation: %w", errShort)
	}
	o := Observation{
		Game:  binary.LittleEndian.Uint64(b),
		Seed:  binary.LittleEndian.Uint64(b[8:]),
		Flags: b[16],
	}
	n := int(b[17])
	b = b[obsHeader:]
	if len(b) < n {
		return Observation{}, nil, fmt.Errorf("observation of game %d: %w", o.Game, errShort)
	}
	if o.Flags&Delta != 0 && (n != 1 || b[0] > byte(solver.NumRanks)) {
		return Observation{}, nil, fmt.Errorf("delta record of game %d: want one byte, a rank 0..13", o.Game)
	}
	o.Position = b[:n:n]
	return o, b[n:], nil
}

// A decision record is: game (8 bytes, little-endian), kind (1: 0 failed,
// 1 ToTable, 2 ToStack, 3 StackToTable, 4 Resign), rank (1; 0 means the
// drawn card or the stack top), stack (1, 0-based), table (1, 1..4; 0 for an
// unassigned ToStack), reason length n (1), reason (n bytes of UTF-8).
const decHeader = 8 + 5

// KindFailed is the kind byte of a decision record whose game the strategy
// could not decide (solver.Decision.Failed).
const KindFailed = 0

// AppendDecision appends the record of d, the decision for game, to b. A
// reason longer than 255 bytes is cut.
func AppendDecision(b []byte, game uint64, d solver.Decision) []byte {
	b = binary.LittleEndian.AppendUint64(b, game)
	kind := byte(d.Move.Kind)
	if d.Failed {
		kind = KindFailed
	}
	reason := d.Reason
	if len(reason) > 255 {
		reason = reason[:255]
	}
	b = append(b, kind, byte(d.Move.Rank), byte(d.Move.Stack), byte(d.Move.Table), byte(len(reason)))
	return append(b, reason...)
}

// ReadDecision reads the record at the start of b and returns the rest. It
// checks the record's form, not the move: the engine checks every move.
func ReadDecision(b []byte) (game uint64, d solver.Decision, rest []byte, err error) {
	if len(b) < decHeader {
		return 0, d, nil, fmt.Errorf("decision: %w", errShort)
	}
	game = binary.LittleEndian.Uint64(b)
	kind, n := b[8], int(b[12])
	if len(b) < decHeader+n {
		return game, d, nil, fmt.Errorf("decision for game %d: %w", game, errShort)
	}
	if n > 0 {
		d.Reason = string(b[decHeader : decHeader+n])
	}
	switch kind {
	case KindFailed:
		d.Failed = true
	case byte(solver.ToTable), byte(solver.ToStack), byte(solver.StackToTable), byte(solver.Resign):
		d.Move = solver.Move{Kind: solver.MoveKind(kind), Rank: solver.Rank(b[9]), Stack: int8(b[10]), Table: int8(b[11])}
	default:
		return game, d, nil, fmt.Errorf("decision for game %d: unknown kind %d", game, kind)
	}
	return game, d, b[decHeader+n:], nil
}
