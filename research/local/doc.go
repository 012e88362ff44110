// Package local owns local search as every part of lwr asks for it, in
// this process: the Request with its one Check and its defaults, the
// Searcher interface, the Session on the index opened here (the index,
// the policies and the synonym dictionary loaded once, the index built
// first when there is none), the policies applied to every search
// (preferred editions first, editions, relations and currentness records
// on each match), the search's message for agents, its output formats as
// functions of the result (text, the agent schema's local_result,
// json-ext, grep, files, count), lwr read's excerpts, and the one table of
// what an error means for whoever asked (OutcomeOf: the MCP tools' codes,
// the command line's exit statuses). It opens no network connection: the
// daemon, its client and the router that picks it are package daemon.
package local
