// Package mem implements the memory utility such as memory pool.
package mem
