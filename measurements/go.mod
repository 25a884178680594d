module github.com/calcsol/calcsol/measurements

go 1.26.0

require github.com/calcsol/calcsol v0.0.0

require (
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.48.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

replace github.com/calcsol/calcsol => ../
