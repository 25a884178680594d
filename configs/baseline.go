package configs

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/calcsol/calcsol/configs/yamldecode"
	"github.com/calcsol/calcsol/tournament"
)

// FormatBaseline writes a baseline as YAML, headed by how to update it.
func FormatBaseline(b *tournament.Baseline) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# A calcsol baseline: the decks each strategy won (docs/tournament.md).\n" +
		"# Check:  calcsol regress --baseline FILE\n" +
		"# Update: calcsol baseline --update FILE\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ParseBaseline reads a baseline written by FormatBaseline; unknown keys are
// refused, and errors name the file, the line and the key.
func ParseBaseline(data []byte, file string) (*tournament.Baseline, error) {
	var b tournament.Baseline
	if err := yamldecode.Decode(data, file, &b); err != nil {
		return nil, err
	}
	if b.Format != tournament.BaselineFormat && b.Format != tournament.BaselineFormatV1 {
		return nil, fmt.Errorf("%s: format %q, want %q: not a calcsol baseline", file, b.Format, tournament.BaselineFormat)
	}
	if len(b.Cells) == 0 {
		return nil, fmt.Errorf("%s: no cells", file)
	}
	return &b, nil
}
