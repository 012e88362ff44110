package policy

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
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

// schema is an embedded schema: its JSON, whose "x-fix" annotations say
// how to fix a value that fails, and its compiled forms.
type schema struct {
	doc map[string]any
	res *jsonschema.Resolved

	mu  sync.Mutex
	sub map[string]*jsonschema.Resolved // compiled sub-schemas by fragment
}

var (
	preferencesSchema = sync.OnceValue(func() *schema { return mustCompile("urn:lwr:schema:source-preferences:1", preferencesSchemaJSON) })
	currentnessSchema = sync.OnceValue(func() *schema { return mustCompile("urn:lwr:schema:currentness:1", currentnessSchemaJSON) })
)

// mustCompile compiles an embedded schema; the tests check that both do.
func mustCompile(url string, data []byte) *schema {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		panic(fmt.Sprintf("policy: embedded schema %s: %v", url, err))
	}
	s := &schema{doc: doc, sub: map[string]*jsonschema.Resolved{}}
	res, err := s.compile("")
	if err != nil {
		panic(fmt.Sprintf("policy: embedded schema %s: %v", url, err))
	}
	s.res = res
	return s
}

// compile compiles the schema at a fragment ("" for the whole), with the
// document's $defs so that its references resolve.
func (s *schema) compile(frag string) (*jsonschema.Resolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.sub[frag]; ok {
		return r, nil
	}
	node := s.node(frag)
	if node == nil {
		return nil, fmt.Errorf("no schema at %q", frag)
	}
	w := make(map[string]any, len(node)+1)
	for k, v := range node {
		if k != "$id" {
			w[k] = v
		}
	}
	if _, ok := w["$defs"]; !ok && s.doc["$defs"] != nil {
		w["$defs"] = s.doc["$defs"]
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(b, &sch); err != nil {
		return nil, err
	}
	r, err := sch.Resolve(nil)
	if err != nil {
		return nil, err
	}
	s.sub[frag] = r
	return r, nil
}

// valid reports whether inst satisfies the schema at frag.
func (s *schema) valid(frag string, inst any) bool {
	r, err := s.compile(frag)
	return err == nil && r.Validate(inst) == nil
}

// failure is one way an instance fails the schema: where (instance
// pointer; for additionalProperties and required, the object's), which
// schema (fragment), the keyword, and the offending property's name.
type failure struct {
	ptr  []string
	frag string
	kw   string
	name string
	msg  string // the validator's message, for keywords not explained here
}

func (f failure) rank() int {
	switch f.kw {
	case "additionalProperties":
		return 0
	case "required":
		return 1
	case "type":
		return 2
	}
	return 3
}

// locate finds where inst fails the schema at frag: it descends into the
// properties and items that fail and names the deepest failures.
func (s *schema) locate(frag string, inst any, ptr []string) []failure {
	node := s.node(frag)
	for i := 0; node != nil && i < 16; i++ {
		ref, ok := node["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			break
		}
		frag, node = ref[1:], s.node(ref[1:])
	}
	if node == nil || s.valid(frag, inst) {
		return nil
	}
	if f, ok := s.typeFailure(frag, node, inst, ptr); ok {
		return []failure{f}
	}
	var out []failure
	add := func(fs ...failure) { out = append(out, fs...) }
	switch v := inst.(type) {
	case map[string]any:
		props, _ := node["properties"].(map[string]any)
		keys := slices.Sorted(maps.Keys(v))
		if node["additionalProperties"] == false {
			for _, k := range keys {
				if _, ok := props[k]; !ok {
					add(failure{ptr: ptr, frag: frag, kw: "additionalProperties", name: k})
				}
			}
		}
		add(s.missing(frag, node, v, ptr)...)
		for _, k := range keys {
			if _, ok := props[k]; ok {
				add(s.locate(frag+"/properties/"+escapeToken(k), v[k], append(slices.Clone(ptr), k))...)
			}
		}
	case []any:
		if _, ok := node["items"].(map[string]any); ok {
			for i, e := range v {
				add(s.locate(frag+"/items", e, append(slices.Clone(ptr), strconv.Itoa(i)))...)
			}
		}
	}
	if all, ok := node["allOf"].([]any); ok {
		for j := range all {
			sub := fmt.Sprintf("%s/allOf/%d", frag, j)
			if n := s.node(sub); n != nil && n["if"] != nil {
				if s.valid(sub+"/if", inst) && n["then"] != nil {
					add(s.locate(sub+"/then", inst, ptr)...)
				}
				continue
			}
			add(s.locate(sub, inst, ptr)...)
		}
	}
	if len(out) == 0 {
		add(s.selfFailure(frag, inst, ptr))
	}
	return out
}

// missing lists the required properties an object lacks.
func (s *schema) missing(frag string, node, obj map[string]any, ptr []string) []failure {
	var out []failure
	req, _ := node["required"].([]any)
	for _, r := range req {
		k, _ := r.(string)
		if _, ok := obj[k]; !ok && k != "" {
			out = append(out, failure{ptr: ptr, frag: frag, kw: "required", name: k})
		}
	}
	return out
}

// typeFailure reports an instance of the wrong JSON type.
func (s *schema) typeFailure(frag string, node map[string]any, inst any, ptr []string) (failure, bool) {
	var want []string
	switch t := node["type"].(type) {
	case string:
		want = []string{t}
	case []any:
		for _, x := range t {
			if w, ok := x.(string); ok {
				want = append(want, w)
			}
		}
	}
	if len(want) == 0 {
		return failure{}, false
	}
	got := jsonType(inst)
	for _, w := range want {
		if w == got || w == "number" && got == "integer" {
			return failure{}, false
		}
	}
	return failure{ptr: ptr, frag: frag, kw: "type", msg: strings.Join(want, ",")}, true
}

// selfFailure names the keyword of the schema at frag that inst fails by
// itself, from the validator's message.
func (s *schema) selfFailure(frag string, inst any, ptr []string) failure {
	f := failure{ptr: ptr, frag: frag, kw: "unknown"}
	r, err := s.compile(frag)
	if err != nil {
		f.msg = err.Error()
		return f
	}
	verr := r.Validate(inst)
	if verr == nil {
		return f
	}
	msg := verr.Error()
	// The message nests "validating <schema>: " prefixes; the innermost
	// part names the keyword.
	if i := strings.LastIndex(msg, ": validating "); i >= 0 {
		msg = msg[i+2:]
	}
	for strings.HasPrefix(msg, "validating ") {
		j := strings.Index(msg, ": ")
		if j < 0 {
			break
		}
		msg = msg[j+2:]
	}
	f.msg = msg
	if k, _, ok := strings.Cut(msg, ":"); ok && !strings.Contains(k, " ") {
		f.kw = k
	}
	return f
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// validate checks a decoded instance and turns the first failure into an
// *Error naming the field and the fix.
func (s *schema) validate(code, file string, inst any) error {
	if s.res.Validate(inst) == nil {
		return nil
	}
	fs := s.locate("", inst, nil)
	if len(fs) == 0 {
		return &Error{Code: code, File: file, Problem: "does not match the schema: " + s.res.Validate(inst).Error(), Fix: "see docs/policies.md"}
	}
	// The most useful failure: the deepest instance location and, there,
	// an unknown field before a missing one before the rest.
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if len(a.ptr) != len(b.ptr) {
			return len(a.ptr) > len(b.ptr)
		}
		if pa, pb := pointer(a.ptr), pointer(b.ptr); pa != pb {
			return pa < pb
		}
		return a.rank() < b.rank()
	})
	leaf := fs[0]
	e := &Error{Code: code, File: file, Field: pointer(leaf.ptr)}
	if leaf.name != "" {
		e.Field = pointer(append(slices.Clone(leaf.ptr), leaf.name))
	}
	frag := leaf.frag
	name := ""
	if n := len(leaf.ptr); n > 0 {
		name = leaf.ptr[n-1]
	}
	got := valueAt(inst, leaf.ptr)
	node := s.node(frag)
	switch leaf.kw {
	case "additionalProperties":
		e.Problem = "unknown field " + quote(leaf.name)
		e.Fix = "remove it or correct its spelling; the fields here are " + strings.Join(s.propertyNames(frag), ", ")
	case "required":
		e.Problem = "missing required field " + quote(leaf.name)
		e.Fix = "add \"" + leaf.name + "\""
		if f := s.propertyFix(frag, leaf.name); f != "" {
			e.Fix += ": " + f
		}
	case "type":
		e.Problem = "is " + article(jsonType(got)) + ", not " + strings.Join(mapSlice(strings.Split(leaf.msg, ","), article), " or ")
		e.Fix = s.fix(frag)
	case "const":
		if name == "version" {
			e.Problem = "version " + shownJSON(got) + " is not supported"
		} else {
			e.Problem = "value " + shownJSON(got) + " is not allowed"
		}
		e.Fix = s.fix(frag)
	case "enum":
		e.Problem = "unknown " + name + " " + shownJSON(got)
		if name == "" || isIndex(name) {
			e.Problem = "unknown value " + shownJSON(got)
		}
		e.Fix = s.fix(frag)
	case "pattern":
		str, _ := got.(string)
		switch {
		case strings.HasSuffix(frag, "/$defs/date"):
			e.Problem = quote(str) + " is not a date in YYYY-MM-DD form"
		case strings.HasSuffix(frag, "/$defs/httpsURL"):
			e.Problem = quote(str) + " is not an https:// URL"
		default:
			e.Problem = "invalid value " + quote(str)
		}
		e.Fix = s.fix(frag)
	case "minItems":
		e.Problem = "the list is empty"
		if want, _ := node["minItems"].(float64); want > 1 {
			n := 0
			if l, ok := got.([]any); ok {
				n = len(l)
			}
			e.Problem = fmt.Sprintf("the list has %d items, at least %d are needed", n, int(want))
		}
		e.Fix = s.fix(frag)
	case "maxItems":
		n := 0
		if l, ok := got.([]any); ok {
			n = len(l)
		}
		want, _ := node["maxItems"].(float64)
		e.Problem = fmt.Sprintf("the list has %d items, at most %d are read", n, int(want))
		e.Fix = "merge or remove items (a pattern such as \"研修/2024/*.md\" covers many files)"
	case "minLength":
		e.Problem = "the text is empty"
		e.Fix = s.fix(frag)
	case "maxLength":
		str, _ := got.(string)
		want, _ := node["maxLength"].(float64)
		e.Problem = fmt.Sprintf("the text is too long (%d characters, at most %d)", utf8.RuneCountInString(str), int(want))
		e.Fix = "shorten it"
	default:
		e.Problem = leaf.msg
		e.Fix = s.fix(frag)
	}
	if e.Fix == "" {
		e.Fix = "see docs/policies.md"
	}
	return e
}

// valueAt returns the value at a pointer of an instance.
func valueAt(inst any, ptr []string) any {
	cur := inst
	for _, t := range ptr {
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
	return cur
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

// node returns the schema JSON at a fragment such as "/$defs/record".
func (s *schema) node(frag string) map[string]any {
	var toks []string
	for _, t := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if t != "" {
			toks = append(toks, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
		}
	}
	m, _ := valueAt(s.doc, toks).(map[string]any)
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
