package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
)

func newTableCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "table",
		Short: "Show, check and derive priority tables",
		Long: `Priority tables are the configuration of the priority strategy (Nanzaki &
Shintani, "A Program to Solve Calculation"): for each rank, the operations to try in order. The shipped ones are
embedded in calcsol; any YAML file in the same format can be given with --table.`,
	}
	cmd.AddCommand(newTableShowCmd(), newTableCheckCmd(), newTableDeriveCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newTableCmd()) }

func newTableShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "show [NAME|FILE]",
		Short:   "Print a priority table (default: Nanzaki & Shintani's Table 1)",
		Example: "  calcsol table show\n  calcsol table show nanzaki-shintani-4\n  calcsol table show my-table.yaml",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := configs.DefaultPriority
			if len(args) == 1 {
				name = args[0]
			}
			t, err := configs.LoadPriority(name)
			if err != nil {
				return badInput("%v", err)
			}
			_, err = cmd.OutOrStdout().Write(configs.FormatPriority(t, ""))
			return err
		},
	}
}

func newTableCheckCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check FILE --stacks N",
		Short: "Check that a priority table parses and fits the given number of stacks",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := rulesFromFlags(cmd)
			if err != nil {
				return err
			}
			t, err := configs.CheckPriority(args[0], r)
			if err != nil {
				return badInput("%w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "ok: %s, %d stacks (%s), options %s\n", t.Name, len(t.Stacks), t.Stacks, t.Options)
			return nil
		},
	}
	cmd.Flags().Int("stacks", 3, "number of stacks the table must fit")
	return cmd
}

func newTableDeriveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "derive --stacks N [--from NAME|FILE] --out FILE",
		Short: "Widen a priority table to more stacks (how: docs/priority.md)",
		Long: `Widen a priority table to more stacks so that every stack is used: the last
stack (the king stack of Table 1) stays last, and each new stack repeats the
operations of the stack before it. The shipped nanzaki-shintani-4 table is
exactly:

  calcsol table derive --from nanzaki-shintani --stacks 4 --out configs/priority/nanzaki-shintani-4.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, _ := cmd.Flags().GetString("from")
			out, _ := cmd.Flags().GetString("out")
			if out == "" {
				return badInput("--out is required (- for standard output)")
			}
			r, err := rulesFromFlags(cmd)
			if err != nil {
				return err
			}
			data, err := configs.DerivePriority(from, r)
			if err != nil {
				return badInput("%w", err)
			}
			if out == "-" {
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			return atomicfile.Write(out, data)
		},
	}
	cmd.Flags().String("from", configs.DefaultPriority, "table to widen (name or file)")
	cmd.Flags().Int("stacks", 4, "number of stacks of the new table")
	cmd.Flags().String("out", "", "output file (- for standard output)")
	return cmd
}
