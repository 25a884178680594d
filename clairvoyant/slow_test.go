//go:build slow

package clairvoyant_test

// With -tags slow the tests check many more positions and decks.
func init() { scale = 10 }
