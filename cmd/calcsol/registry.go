package main

import (
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/search"
	"github.com/calcsol/calcsol/strategies"
)

// strategyRegistry returns every kind of strategy this binary can build: the
// built-ins (configs.Strategies) and the kinds that live in their own
// packages (the plugin host; the searching players of package search).
func strategyRegistry() *strategies.Registry {
	r := configs.Strategies()
	r.MustRegister(plugin.Kind())
	for _, k := range search.Kinds() {
		r.MustRegister(k)
	}
	return r
}
