package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

func newStrategiesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "strategies [KIND...] [--format text|json]",
		Short: "List the kinds of strategy, their parameters, and the presets",
		Long: `List every kind of strategy this binary can build (or the kinds and presets
named): whether it is a base or a wrapper, what it does, and each parameter
with its type, its default, its range and what it means; then the presets,
named strategies for each rule variant (the strongest measured, and a fast
strong one) with what they won and cost: --strategy best-4p plays one.

A strategy is a base kind and any wrappers around it, each with its own
parameters. Commands take it as a one-line spec (--strategy), a tournament
config as a tree or the same spec (docs/tournament.md):

  priority:table=tuned-4,deadlock_check=exact+rescue+endgame:k=4

and --set KIND.KEY=VALUE sets one layer's parameter on the command line.
A list parameter separates its items with ';' in a spec.`,
		Example: `  calcsol strategies
  calcsol strategies sample endgame
  calcsol strategies --format json priority`,
		RunE: runStrategies,
	}
	cmd.Flags().String("format", "text", "output format: text, json")
	return cmd
}

func init() { rootCmd.AddCommand(newStrategiesCmd()) }

func runStrategies(cmd *cobra.Command, args []string) error {
	format, _ := cmd.Flags().GetString("format")
	if format != "text" && format != "json" {
		return badInput("--format %q: want text or json", format)
	}
	reg := strategyRegistry()
	kinds, presets := reg.Kinds(), reg.Presets()
	if len(args) > 0 {
		kinds, presets = kinds[:0], presets[:0]
		for _, name := range args {
			if k, ok := reg.Kind(name); ok {
				kinds = append(kinds, k)
				continue
			}
			p, ok := reg.Preset(name)
			if !ok {
				return badInput("no strategy kind or preset %q (kinds: %s)", name, strings.Join(reg.Names(), ", "))
			}
			presets = append(presets, p)
		}
	}
	if format == "json" {
		return writeKindsJSON(cmd.OutOrStdout(), kinds, presets)
	}
	return writeKinds(cmd.OutOrStdout(), kinds, presets)
}

// kindRole says where a kind stands in a strategy.
func kindRole(k strategies.Kind) string {
	if k.Wrap != nil {
		return "wrapper"
	}
	return "base"
}

// paramType describes what values a parameter takes.
func paramType(p solver.Param) string {
	switch p.Kind {
	case solver.ParamBool:
		return "true or false"
	case solver.ParamInt:
		return fmt.Sprintf("whole number %s to %s", number(p.Min), number(p.Max))
	case solver.ParamFloat:
		return fmt.Sprintf("number %s to %s", number(p.Min), number(p.Max))
	case solver.ParamChoice:
		return "one of " + strings.Join(p.Choices, ", ")
	}
	return "text"
}

func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// writeKinds lists kinds and presets for a terminal of 100 columns.
func writeKinds(w io.Writer, kinds []strategies.Kind, presets []strategies.Preset) error {
	for i, k := range kinds {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s)\n%s\n", k.Name, kindRole(k), textblock.Wrap(k.Doc, 98))
		for _, p := range k.Params {
			def := p.Value
			if def == "" {
				def = `""`
			}
			fmt.Fprintf(w, "  %s: %s; default %s\n", p.Name, paramType(p), def)
			if p.Doc != "" {
				fmt.Fprintln(w, textblock.Indent(textblock.Wrap(p.Doc, 94), "  "))
			}
		}
		if len(k.Params) == 0 {
			fmt.Fprintln(w, "  (no parameters)")
		}
	}
	for i, p := range presets {
		if i == 0 {
			if len(kinds) > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, "Presets (--strategy NAME; a preset may be followed by more wrappers: NAME+…):")
		}
		fmt.Fprintf(w, "\n%s (preset)", p.Name)
		if p.Rules != "" {
			fmt.Fprintf(w, ": %s", p.Rules)
		}
		fmt.Fprintf(w, "\n%s\n", textblock.Wrap(p.Doc, 98))
		if p.Measured != "" {
			fmt.Fprintln(w, textblock.Wrap("measured: "+p.Measured, 98))
		}
		fmt.Fprintln(w, textblock.Indent(textblock.Wrap(strings.ReplaceAll(p.Spec, "+", " +"), 94), "  "))
	}
	return nil
}

type kindJSON struct {
	Name       string      `json:"name"`
	Role       string      `json:"role"`
	Doc        string      `json:"doc"`
	Stochastic bool        `json:"stochastic"`
	Params     []paramJSON `json:"params"`
}

type paramJSON struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Default string   `json:"default"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Doc     string   `json:"doc"`
}

type presetJSON struct {
	Name     string `json:"name"`
	Rules    string `json:"rules"`
	Doc      string `json:"doc"`
	Measured string `json:"measured"`
	Spec     string `json:"spec"`
}

// paramJSONType names a parameter's kind in --format json.
var paramJSONType = map[solver.ParamKind]string{solver.ParamText: "text", solver.ParamBool: "bool",
	solver.ParamInt: "int", solver.ParamFloat: "float", solver.ParamChoice: "choice"}

func writeKindsJSON(w io.Writer, kinds []strategies.Kind, presets []strategies.Preset) error {
	out := []kindJSON{}
	for _, k := range kinds {
		kj := kindJSON{Name: k.Name, Role: kindRole(k), Doc: k.Doc, Stochastic: k.Stochastic, Params: []paramJSON{}}
		for _, p := range k.Params {
			pj := paramJSON{Name: p.Name, Type: paramJSONType[p.Kind], Default: p.Value, Choices: slices.Clone(p.Choices), Doc: p.Doc}
			if p.Kind == solver.ParamInt || p.Kind == solver.ParamFloat {
				lo, hi := p.Min, p.Max
				pj.Min, pj.Max = &lo, &hi
			}
			kj.Params = append(kj.Params, pj)
		}
		out = append(out, kj)
	}
	ps := []presetJSON{}
	for _, p := range presets {
		ps = append(ps, presetJSON{Name: p.Name, Rules: p.Rules, Doc: p.Doc, Measured: p.Measured, Spec: p.Spec})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Kinds   []kindJSON   `json:"kinds"`
		Presets []presetJSON `json:"presets"`
	}{out, ps})
}
