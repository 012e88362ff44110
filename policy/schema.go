package policy

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed schema/source-preferences.schema.json
var preferencesSchemaJSON []byte

//go:embed schema/currentness.schema.json
var currentnessSchemaJSON []byte

// PreferencesSchema returns the JSON Schema (draft 2020-12) of
// source-preferences.json, the one LoadPreferences validates with.
func PreferencesSchema() []byte { return bytes.Clone(preferencesSchemaJSON) }

// CurrentnessSchema returns the JSON Schema (draft 2020-12) of
// currentness.json, the one LoadCurrentness validates with.
func CurrentnessSchema() []byte { return bytes.Clone(currentnessSchemaJSON) }

// schema is a compiled embedded schema with its JSON, whose "x-fix"
// annotations say how to fix a value that fails.
type schema struct {
	doc any
	sch *jsonschema.Schema
}

var (
	preferencesSchema = sync.OnceValue(func() *schema { return mustCompile("urn:lwr:schema:source-preferences:1", preferencesSchemaJSON) })
	currentnessSchema = sync.OnceValue(func() *schema { return mustCompile("urn:lwr:schema:currentness:1", currentnessSchemaJSON) })
)

// mustCompile compiles an embedded schema; the tests check that both do.
func mustCompile(url string, data []byte) *schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		panic(fmt.Sprintf("policy: embedded schema %s: %v", url, err))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("policy: embedded schema %s: %v", url, err))
	}
	sch, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("policy: embedded schema %s: %v", url, err))
	}
	return &schema{doc: doc, sch: sch}
}

// validate checks a decoded instance and turns the first failure into an
// *Error naming the field and the fix.
func (s *schema) validate(code, file string, inst any) error {
	err := s.sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Error{Code: code, File: file, Problem: "does not match the schema: " + err.Error(), Fix: "see docs/policies.md"}
	}
	leaf := pickLeaf(ve)
	e := &Error{Code: code, File: file, Field: pointer(leaf.InstanceLocation)}
	frag := fragment(leaf.SchemaURL)
	name := ""
	if n := len(leaf.InstanceLocation); n > 0 {
		name = leaf.InstanceLocation[n-1]
	}
	switch k := leaf.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		e.Field = pointer(append(slices.Clone(leaf.InstanceLocation), k.Properties[0]))
		e.Problem = "unknown field " + quote(k.Properties[0])
		e.Fix = "remove it or correct its spelling; the fields here are " + strings.Join(s.propertyNames(frag), ", ")
	case *kind.Required:
		e.Field = pointer(append(slices.Clone(leaf.InstanceLocation), k.Missing[0]))
		e.Problem = "missing required field " + quote(k.Missing[0])
		e.Fix = "add \"" + k.Missing[0] + "\""
		if f := s.propertyFix(frag, k.Missing[0]); f != "" {
			e.Fix += ": " + f
		}
	case *kind.Type:
		e.Problem = "is " + article(k.Got) + ", not " + strings.Join(mapSlice(k.Want, article), " or ")
		e.Fix = s.fix(frag)
	case *kind.Const:
		if name == "version" {
			e.Problem = "version " + shownJSON(k.Got) + " is not supported"
		} else {
			e.Problem = "value " + shownJSON(k.Got) + " is not allowed"
		}
		e.Fix = s.fix(frag)
	case *kind.Enum:
		e.Problem = "unknown " + name + " " + shownJSON(k.Got)
		if name == "" || isIndex(name) {
			e.Problem = "unknown value " + shownJSON(k.Got)
		}
		e.Fix = s.fix(frag)
	case *kind.Pattern:
		switch {
		case strings.HasSuffix(frag, "/$defs/date"):
			e.Problem = quote(k.Got) + " is not a date in YYYY-MM-DD form"
		case strings.HasSuffix(frag, "/$defs/httpsURL"):
			e.Problem = quote(k.Got) + " is not an https:// URL"
		default:
			e.Problem = "invalid value " + quote(k.Got)
		}
		e.Fix = s.fix(frag)
	case *kind.MinItems:
		e.Problem = "the list is empty"
		if k.Want > 1 {
			e.Problem = fmt.Sprintf("the list has %d items, at least %d are needed", k.Got, k.Want)
		}
		e.Fix = s.fix(frag)
	case *kind.MinLength:
		e.Problem = "the text is empty"
		e.Fix = s.fix(frag)
	case *kind.MaxLength:
		e.Problem = fmt.Sprintf("the text is too long (%d characters, at most %d)", k.Got, k.Want)
		e.Fix = "shorten it"
	default:
		e.Problem = leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English))
		e.Fix = s.fix(frag)
	}
	if e.Fix == "" {
		e.Fix = "see docs/policies.md"
	}
	return e
}

// pickLeaf returns the most useful failure: the deepest instance location
// and, there, an unknown field before a missing one before the rest.
func pickLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	rank := func(e *jsonschema.ValidationError) int {
		switch e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			return 0
		case *kind.Required:
			return 1
		case *kind.Type:
			return 2
		}
		return 3
	}
	sort.SliceStable(leaves, func(i, j int) bool {
		a, b := leaves[i], leaves[j]
		if len(a.InstanceLocation) != len(b.InstanceLocation) {
			return len(a.InstanceLocation) > len(b.InstanceLocation)
		}
		if pa, pb := pointer(a.InstanceLocation), pointer(b.InstanceLocation); pa != pb {
			return pa < pb
		}
		return rank(a) < rank(b)
	})
	return leaves[0]
}

// pointer writes a JSON pointer (RFC 6901).
func pointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

func fragment(url string) string {
	if i := strings.IndexByte(url, '#'); i >= 0 {
		return url[i+1:]
	}
	return ""
}

// node returns the schema JSON at a fragment such as "/$defs/record".
func (s *schema) node(frag string) map[string]any {
	var cur any = s.doc
	for _, t := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if t == "" {
			continue
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// resolve follows a local "$ref".
func (s *schema) resolve(n map[string]any) map[string]any {
	if ref, ok := n["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
		return s.node(ref[1:])
	}
	return n
}

// fix returns the "x-fix" of the schema at frag or of the nearest schema
// above it.
func (s *schema) fix(frag string) string {
	for {
		if n := s.node(frag); n != nil {
			if f, ok := n["x-fix"].(string); ok {
				return f
			}
		}
		i := strings.LastIndexByte(frag, '/')
		if i < 0 || frag == "" {
			return ""
		}
		frag = frag[:i]
	}
}

// propertyFix returns the "x-fix" of property p of the object schema at
// frag, or the fix of that schema.
func (s *schema) propertyFix(frag, p string) string {
	if n := s.node(frag); n != nil {
		if props, ok := n["properties"].(map[string]any); ok {
			if pn, ok := props[p].(map[string]any); ok {
				if f, ok := s.resolve(pn)["x-fix"].(string); ok {
					return f
				}
			}
		}
	}
	return s.fix(frag)
}

// propertyNames lists the properties allowed by the object schema at frag.
func (s *schema) propertyNames(frag string) []string {
	var out []string
	if n := s.node(frag); n != nil {
		if props, ok := n["properties"].(map[string]any); ok {
			for k := range props {
				if k != "$schema" {
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// shownJSON shows a JSON value from the file: strings quoted and escaped,
// numbers and others as written.
func shownJSON(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return quote(fmt.Sprint(v))[1 : len(quote(fmt.Sprint(v)))-1]
}

func article(t string) string {
	switch t {
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "string":
		return "a string"
	case "integer", "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "null":
		return "null"
	}
	return t
}

func mapSlice(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
