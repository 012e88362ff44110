// Package trie implements the double array trie library.
package trie
