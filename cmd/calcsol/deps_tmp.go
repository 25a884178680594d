package main

// Temporary: keeps the chosen modules in go.mod while the packages that use
// them are being written. Removed once they are imported for real.
import (
	_ "github.com/hashicorp/go-plugin"
	_ "github.com/olekukonko/tablewriter"
	_ "go.yaml.in/yaml/v3"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/plot"
)
