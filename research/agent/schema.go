package agent

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
	"lwr/web"
)

// textTypes are the types that marshal as a string of a fixed set (their
// Go kind is an integer, which schema inference would declare); their
// values come from the code that reads them.
var textTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[edition.Kind](): {Type: "string", Enum: names(edition.Kinds()),
		Description: "what the statement is: a fiscal year (2024年度), an edition (第3版), a version (v1.2), a revision, effective, enactment, issue or creation date, or a date"},
	reflect.TypeFor[policy.RelationKind](): {Type: "string", Enum: names(policy.RelationKinds()),
		Description: "superseded_by: a preferred document supersedes this one (旧版); supersedes: this preferred one supersedes the other; possibly_related: titles equal but for years or editions (関連の可能性)"},
}

// enums are the fixed values of string inputs, by JSON property name,
// from the code that parses them.
var enums = map[string][]any{
	"mode":         names(index.Modes()),
	"intent":       names(web.Intents()),
	"model":        anys(report.Models),
	"local_status": statusEnum(report.PhaseLocal),
	"web_status":   statusEnum(report.PhaseWeb),
	"deep_status":  statusEnum(report.PhaseDeep),
}

// names are the String forms of a set of values.
func names[T fmt.Stringer](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func statusEnum(p report.Phase) []any {
	var out []any
	for _, s := range p.Statuses() {
		out = append(out, string(s))
	}
	return out
}

// schemaFor infers the JSON Schema of a tool's input or output type.
func schemaFor[T any](input bool) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: textTypes})
	if err != nil {
		return nil, err
	}
	if input {
		for name, p := range s.Properties {
			if e, ok := enums[name]; ok && p.Type == "string" {
				p.Enum = e
			}
		}
	}
	return s, nil
}

// add registers a tool with its schemas inferred from its handler's types.
func add[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) error {
	in, err := schemaFor[In](true)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	out, err := schemaFor[Out](false)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	t.InputSchema, t.OutputSchema = in, out
	mcp.AddTool(s.mcp, t, h)
	return nil
}
