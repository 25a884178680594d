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
		Short: "List the kinds of strategy and their parameters",
		Long: `List every kind of strategy this binary can build (or the kinds named):
whether it is a base or a wrapper, what it does, and each parameter with its
type, its default, its range and what it means.

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
	kinds := reg.Kinds()
	if len(args) > 0 {
		kinds = kinds[:0]
		for _, name := range args {
			k, ok := reg.Kind(name)
			if !ok {
				return badInput("no strategy kind %q (known: %s)", name, strings.Join(reg.Names(), ", "))
			}
			kinds = append(kinds, k)
		}
	}
	if format == "json" {
		return writeKindsJSON(cmd.OutOrStdout(), kinds)
	}
	return writeKinds(cmd.OutOrStdout(), kinds)
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

// writeKinds lists kinds for a terminal of 100 columns.
func writeKinds(w io.Writer, kinds []strategies.Kind) error {
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

func writeKindsJSON(w io.Writer, kinds []strategies.Kind) error {
	out := []kindJSON{}
	for _, k := range kinds {
		kj := kindJSON{Name: k.Name, Role: kindRole(k), Doc: k.Doc, Stochastic: k.Stochastic, Params: []paramJSON{}}
		for _, p := range k.Params {
			pj := paramJSON{Name: p.Name, Default: p.Value, Choices: slices.Clone(p.Choices), Doc: p.Doc}
			switch p.Kind {
			case solver.ParamBool:
				pj.Type = "bool"
			case solver.ParamInt, solver.ParamFloat:
				pj.Type = map[solver.ParamKind]string{solver.ParamInt: "int", solver.ParamFloat: "float"}[p.Kind]
				lo, hi := p.Min, p.Max
				pj.Min, pj.Max = &lo, &hi
			case solver.ParamChoice:
				pj.Type = "choice"
			default:
				pj.Type = "text"
			}
			kj.Params = append(kj.Params, pj)
		}
		out = append(out, kj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
