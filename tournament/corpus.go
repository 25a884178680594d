package tournament

import (
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/solver"
)

// Corpus is a list of decks a tournament plays: package corpus reads,
// generates and identifies it (corpus.Calculation).
type Corpus = corpus.Calculation

// NewCorpus is corpus.NewCalculation.
//
// Deprecated: call corpus.NewCalculation.
func NewCorpus(name string, ds []solver.Deck) (*Corpus, error) {
	return corpus.NewCalculation(name, ds)
}

// ShippedCorpora is corpus.Shipped.
//
// Deprecated: call corpus.Shipped.
func ShippedCorpora() []string { return corpus.Shipped() }

// LoadCorpus is corpus.OpenCalculation.
//
// Deprecated: call corpus.OpenCalculation.
func LoadCorpus(name, fileOrShipped string) (*Corpus, error) {
	return corpus.OpenCalculation(name, fileOrShipped)
}

// GenerateCorpus is corpus.GenerateCalculation.
//
// Deprecated: call corpus.GenerateCalculation.
func GenerateCorpus(name, spec string, seed uint64, count int) (*Corpus, error) {
	return corpus.GenerateCalculation(name, spec, seed, count)
}
