// Package daemon is lwr's daemon and the way to it: Run keeps the index of
// a source root current and answers its clients, Start and Stop start it
// in the background and stop it, Client is a local.Searcher served by it,
// and Open is the router every command uses — the daemon while it answers,
// else a local.Session in this process. The Server is thin: a few lines
// per request over any local.Searcher. The protocol is one JSON line each
// way, of its own versioned wire types (wire.go, with a round-trip test
// and a golden message), errors named by the codes of codes.go; the
// transport is a unix socket in the index folder, or loopback TCP with a
// token on Windows.
package daemon
