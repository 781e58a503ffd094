// Package handlers holds Alpha Tactics' effect handlers: its registry
// AlphaTactics (an effects.Registry) with the package-level Register,
// Lookup, Names and All over it, its five timings and reference kinds and
// every handler's declaration (declare.go), behaviour (handlers.go) and the
// Table interface the engine implements for them (behavior.go).
package handlers
