package stats

import (
	"errors"
	"fmt"
	"math"
)

// SPRT is the sequential test calcsol match decides with: Wald's sequential
// probability ratio test (A. Wald, "Sequential tests of statistical
// hypotheses", Annals of Mathematical Statistics 16 (1945) 117–186) on the
// decks that only one of two players won, made two-sided as M. Sobel and
// A. Wald do for three decisions ("A sequential decision procedure for
// choosing one of three hypotheses concerning the unknown mean of a normal
// distribution", Ann. Math. Statist. 20 (1949) 502–522).
//
// Paired on the same decks, the decks both players won or both lost say
// nothing about which is stronger; of the others, let θ be the share that B
// won. θ = ½ is "equally strong". Odds is the smallest advantage worth
// detecting, as the odds θ/(1−θ) of the stronger player on those decks
// (1.5: it wins three of every five decks on which the two differ). Two
// one-sided tests run side by side, each of ½ against Odds/(1+Odds) for one
// player, each at level Alpha/2: a verdict that either player is stronger
// when they are equally strong has probability at most about Alpha, and a
// player that is stronger by at least Odds is found with probability at
// least about 1 − Beta (Wald's bounds, which the test of this package checks
// by simulation). The test needs no fixed number of decks: it stops as soon
// as either statistic leaves its band, and it is valid however often it is
// looked at.
//
// Why this and not a fixed-size McNemar test: the number of decks needed
// depends on how often the players differ, which is not known before; an
// SPRT spends few decks on a large difference and many only on a small one.
// Why not a group-sequential McNemar test: that needs the looks planned in
// advance, while a match looks after every deck.
type SPRT struct {
	Odds  float64 // > 1
	Alpha float64 // in (0, 1): the chance of a false "stronger"
	Beta  float64 // in (0, 1): the chance of missing an advantage of Odds
}

// DefaultSPRT is calcsol match's default: odds 1.5, α = β = 0.05.
var DefaultSPRT = SPRT{Odds: 1.5, Alpha: 0.05, Beta: 0.05}

// Verdict is where a sequential test stands.
type Verdict int

// The verdicts of an SPRT.
const (
	Undecided Verdict = iota
	AStronger
	BStronger
	// NoAdvantage: neither player is stronger by the odds sought (the two
	// tests both accepted θ = ½).
	NoAdvantage
)

func (v Verdict) String() string {
	return [...]string{"undecided", "A is stronger", "B is stronger", "no advantage of the odds sought"}[v]
}

// Check says what is wrong with t's parameters, if anything.
func (t SPRT) Check() error {
	switch {
	case !(t.Odds > 1) || math.IsInf(t.Odds, 0):
		return fmt.Errorf("odds %g: want a number above 1 (1.5: the stronger wins 3 of 5 decks the two differ on)", t.Odds)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("alpha %g: want a probability between 0 and 1", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("beta %g: want a probability between 0 and 1", t.Beta)
	case t.Alpha/2+t.Beta >= 1:
		return errors.New("alpha/2 + beta must be below 1")
	}
	return nil
}

// Bounds are the log-likelihood-ratio bounds of each one-sided test: a
// statistic at or above upper accepts "stronger", at or below lower accepts
// "not stronger by the odds".
func (t SPRT) Bounds() (lower, upper float64) {
	a := t.Alpha / 2
	return math.Log(t.Beta / (1 - a)), math.Log((1 - t.Beta) / a)
}

// LLR returns the log-likelihood ratios of "A stronger" and "B stronger"
// after onlyA decks won by A alone and onlyB by B alone.
func (t SPRT) LLR(onlyA, onlyB int) (llrA, llrB float64) {
	th := t.Odds / (1 + t.Odds)
	win, lose := math.Log(2*th), math.Log(2*(1-th))
	return float64(onlyA)*win + float64(onlyB)*lose, float64(onlyB)*win + float64(onlyA)*lose
}

// Decide returns the verdict after onlyA and onlyB decks won by one player
// alone.
func (t SPRT) Decide(onlyA, onlyB int) Verdict {
	lower, upper := t.Bounds()
	llrA, llrB := t.LLR(onlyA, onlyB)
	switch {
	case llrA >= upper:
		return AStronger
	case llrB >= upper:
		return BStronger
	case llrA <= lower && llrB <= lower:
		return NoAdvantage
	}
	return Undecided
}
