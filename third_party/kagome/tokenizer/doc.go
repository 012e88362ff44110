// Package tokenizer is a japanese morphological analyzer library.
package tokenizer
