// Package docs holds no code, only the tests that keep calcsol's documentation
// true: every citation key is defined in docs/references.md, every relative
// link resolves inside the repository, and docs/rules.md agrees with the engine.
package docs
