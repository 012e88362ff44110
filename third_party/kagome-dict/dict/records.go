package dict

import "io"

// recordChunk is how many bytes readRecords takes from its reader at once.
const recordChunk = 64 << 10

// readRecords reads n records of size bytes each from r, a buffer at a
// time, and calls f with each record's index and bytes.
func readRecords(r io.Reader, n, size int, f func(i int, b []byte)) error {
	buf := make([]byte, recordChunk-recordChunk%size)
	for i := 0; i < n; {
		k := min(n-i, len(buf)/size)
		b := buf[:k*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return err
		}
		for j := range k {
			f(i+j, b[j*size:(j+1)*size])
		}
		i += k
	}
	return nil
}
