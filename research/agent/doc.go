// Package agent serves lwr to coding agents (Codex, Claude Code) over the
// Model Context Protocol: the tools search, read, status, web_search,
// research, validate and finalize, and the deep research phases
// deep_start, deep_search, deep_gaps, deep_finalize and deep_status
// (confined to the server's workspace), each with JSON Schemas for its input
// and output and descriptions written for an agent in Japanese and
// English, answered through the daemon when it runs and by the index
// opened in this process otherwise. The skill shipped with lwr, which
// tells an agent when and how to use these tools, is research/agent/skill.
package agent
