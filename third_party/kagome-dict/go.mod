module github.com/ikawaha/kagome-dict

go 1.24.0

retract v1.1.3 // Bug in dictionary lookup.
