// Package examples holds the example strategy plugins, and gives their
// files to `calcsol plugin init`, which starts a project from them:
// goplugin (a Go module's main package, "soonest-fit") and pyplugin (the
// Python SDK, its generated gRPC stubs and "lowest-stack").
package examples

import "embed"

// Files holds goplugin/main.go and pyplugin/*.py.
//
//go:embed goplugin/main.go pyplugin/*.py
var Files embed.FS
