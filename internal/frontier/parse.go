package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// section is the heading of the table's section in docs/results.md.
const section = "## Strength per CPU"

// point is one row of the frontier table.
type point struct {
	rules, player string
	ms            float64 // CPU ms a game
	rate, lo, hi  float64 // win rate and its interval, %
}

// The table's columns: rules | player | CPU ms a game | wins | rate [lo, hi] | …
var (
	rateRe = regexp.MustCompile(`([0-9.]+) % \[([0-9.]+), ([0-9.]+)\]`)
	msRe   = regexp.MustCompile(`^([0-9][0-9,.]*)$`)
)

// parse reads the frontier table, the first table of the section, of the
// results page src (its name is for errors: "results.md:120: …").
func parse(text, src string) ([]point, error) {
	lines := strings.Split(text, "\n")
	in := false
	var pts []point
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.HasPrefix(line, section)
			continue
		case !in:
			continue
		case !strings.HasPrefix(line, "| "):
			if len(pts) > 0 {
				in = false // the first table of the section only
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) < 5 || cells[0] == "rules" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		ms := msRe.FindStringSubmatch(strings.Trim(cells[2], "* "))
		rate := rateRe.FindStringSubmatch(strings.ReplaceAll(cells[4], "*", ""))
		if ms == nil || rate == nil {
			return nil, fmt.Errorf("%s:%d: want CPU ms in column 3 and \"R %% [L, H]\" in column 5", src, i+1)
		}
		pt := point{rules: cells[0], player: strings.Trim(cells[1], "`* ")}
		pt.ms, _ = strconv.ParseFloat(strings.ReplaceAll(ms[1], ",", ""), 64)
		pt.rate, _ = strconv.ParseFloat(rate[1], 64)
		pt.lo, _ = strconv.ParseFloat(rate[2], 64)
		pt.hi, _ = strconv.ParseFloat(rate[3], 64)
		pts = append(pts, pt)
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%s: no table under %q", src, section)
	}
	return pts, nil
}
