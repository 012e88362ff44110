// Package lattice implements the core of the morph analyzer.
package lattice
