package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/clairvoyant"
)

// newSATWorkerCmd is the SAT solver that `calcsol solve --sat` runs in a
// child process (so that its time limit can stop it): a formula in DIMACS
// CNF on standard input, the answer in the SAT competition's format on
// standard output.
func newSATWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "sat-worker",
		Short:  "Solve a DIMACS CNF formula from standard input (used by solve --sat)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			nvars, clauses, err := clairvoyant.ReadDIMACS(cmd.InOrStdin())
			if err != nil {
				return badInput("standard input: %v", err)
			}
			sat, model, err := clairvoyant.Gophersat{}.SolveCNF(context.Background(), nvars, clauses)
			if err != nil {
				return err
			}
			return clairvoyant.WriteDIMACSAnswer(cmd.OutOrStdout(), sat, model)
		},
	}
}

func init() { rootCmd.AddCommand(newSATWorkerCmd()) }
