// Package local owns local search as every part of lwr asks for it: one
// Searcher with two implementations — a Session on the index opened in
// this process (the index, the policies and the synonym dictionary loaded
// once, the index built first when there is none) and a Client of the
// daemon — and the choice between them (Open). It applies the source
// root's policies to every search (preferred editions first, editions,
// relations and currentness records on each match), writes the search's
// message for agents and its output formats (text, the agent schema's
// local_result, json-ext), and runs the daemon: its server, its versioned
// protocol (typed JSON), its transport, starting and stopping it.
package local
