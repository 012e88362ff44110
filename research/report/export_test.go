package report

// WriteSynced is writeSynced, for the tests that make a write fail.
var WriteSynced = writeSynced

// CheckSentence is checkSentence, for the tests of every problem code.
var CheckSentence = checkSentence
