// Package measurements holds no code: its directory keeps the records of
// the long sharded runs the docs quote (README.md), and its test checks
// them against what README.md says of them.
package measurements
