package report

// WriteSynced is writeSynced, for the tests that make a write fail.
var WriteSynced = writeSynced
