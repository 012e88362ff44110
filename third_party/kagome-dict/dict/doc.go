// Package dict implements the dictionary of the morph analyzer.
package dict
