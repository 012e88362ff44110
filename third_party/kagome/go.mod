module github.com/ikawaha/kagome/v2

go 1.24.0

require (
	github.com/ikawaha/kagome-dict v1.1.7
	github.com/ikawaha/kagome-dict/ipa v1.2.6
	github.com/ikawaha/kagome-dict/uni v1.2.6
)
