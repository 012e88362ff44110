// Package skill holds the agent skill shipped with lwr and writes it where
// agents look for it: SKILL.md in a skills folder (Claude Code's
// ~/.claude/skills, Codex's ~/.codex/skills) and the Codex plugin (its
// manifest, the skill and the MCP server that runs lwr mcp).
package skill
