package main

import (
	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/search"
	"github.com/calcsol/calcsol/strategies"
)

// strategyRegistry returns every kind of strategy this binary can build: the
// built-ins (configs.Strategies) and the kinds that live in their own
// packages, added here, one line each.
func strategyRegistry() *strategies.Registry {
	r := configs.Strategies()
	r.MustRegister(plugin.Kind())
	r.MustRegister(search.EndgameKind())
	r.MustRegister(search.DeadlockGraphKind())
	r.MustRegister(search.SampleKind())
	r.MustRegister(search.PIMCKind())
	return r
}
