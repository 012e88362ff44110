package deep

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"lwr/research/report"
	"lwr/research/understand"
)

// Followup is the name of the subtopic the gap check adds when the
// findings list gaps.
const Followup = "_followup"

// Bounds of a plan.
const (
	MinSubtopics     = 1 // given by the caller
	MaxSubtopics     = 5
	ProposeMin       = 3 // proposed by lwr
	ProposeMax       = 5
	MaxQueries       = 3
	maxTopicChars    = 500
	maxSubtopicChars = 120
	maxAlternatives  = 8
)

// Subtopic is one part of a topic with the queries that search it.
type Subtopic struct {
	Name    string   `yaml:"name" json:"name" jsonschema:"the subtopic, in a few words (日当)"`
	Queries []string `yaml:"queries" json:"queries,omitempty" jsonschema:"2–3 search queries for it; lwr writes them when none are given"`
	// Alternatives are words in the documents' formal vocabulary, added
	// to every query of the subtopic at a lower weight.
	Alternatives []string `yaml:"alternatives,omitempty" json:"alternatives,omitempty" jsonschema:"3–5 words in the documents' formal vocabulary (有休 → 年次有給休暇, 付与), added to its searches"`
	// Proposed: lwr proposed the subtopic (it was not asked for by
	// name), so its evidence must speak of the topic.
	Proposed bool `yaml:"proposed,omitempty" json:"-"`
}

// Plan is plan.md: the topic, its slug and its subtopics.
type Plan struct {
	Status    string     `yaml:"status" json:"status"`
	Topic     string     `yaml:"topic" json:"topic"`
	Slug      string     `yaml:"slug" json:"slug"`
	Subtopics []Subtopic `yaml:"subtopics" json:"subtopics"`
}

// PlanStatus is the plan's status: it is written once, at the start.
const PlanStatus = "planning"

// checkTopic validates a topic and cleans its space.
func checkTopic(topic string) (string, error) {
	t := strings.Join(strings.Fields(topic), " ")
	switch {
	case t == "":
		return "", errorf(ErrInput, "the topic is empty; give the question to research, e.g. lwr deep start 出張旅費の規程")
	case !utf8.ValidString(t):
		return "", errorf(ErrInput, "the topic is not UTF-8 text")
	case utf8.RuneCountInString(t) > maxTopicChars:
		return "", errorf(ErrInput, "the topic has %d characters; give at most %d", utf8.RuneCountInString(t), maxTopicChars)
	case strings.TrimSpace(understand.StripSkipWords(t)) == "":
		return "", errorf(ErrInput, "the topic has only skip words (%s); give the question to research, e.g. lwr deep start 出張旅費の規程 (to search the documents alone, run it with lwr deep run --skip-web)", strings.Join(understand.SkipWebWords, ", "))
	}
	return t, nil
}

// checkSubtopics validates the caller's subtopics and gives each its
// queries when it has none: its name, and the topic with its name.
func checkSubtopics(topic string, subs []Subtopic) ([]Subtopic, error) {
	if len(subs) > MaxSubtopics {
		return nil, errorf(ErrInput, "%d subtopics: give at most %d — a deep research is made for 3–5 (fewer are fine); research the rest as a topic of its own", len(subs), MaxSubtopics)
	}
	seen := map[string]bool{}
	out := make([]Subtopic, 0, len(subs))
	for i, s := range subs {
		name := strings.Join(strings.Fields(s.Name), " ")
		switch {
		case name == "":
			return nil, errorf(ErrInput, "subtopic %d has no name; give it in a few words", i+1)
		case !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxSubtopicChars:
			return nil, errorf(ErrInput, "subtopic %d: give its name as text of at most %d characters", i+1, maxSubtopicChars)
		case name == Followup:
			return nil, errorf(ErrInput, "%s is the name of the gap check's subtopic; name subtopic %d otherwise", Followup, i+1)
		case seen[fold(name)]:
			return nil, errorf(ErrInput, "the subtopic %q is given twice; give each once", name)
		}
		seen[fold(name)] = true
		var qs []string
		for _, q := range s.Queries {
			if q = strings.Join(strings.Fields(q), " "); q != "" && !containsFold(qs, q) {
				qs = append(qs, q)
			}
		}
		if len(qs) > MaxQueries {
			return nil, errorf(ErrInput, "subtopic %q has %d queries; give 2–3", name, len(qs))
		}
		for _, q := range qs {
			if utf8.RuneCountInString(q) > maxTopicChars {
				return nil, errorf(ErrInput, "a query of subtopic %q has over %d characters", name, maxTopicChars)
			}
		}
		if len(qs) == 0 {
			qs = defaultQueries(topicCore(topic), name)
		}
		alts, err := checkAlternatives(s.Alternatives)
		if err != nil {
			return nil, fmt.Errorf("subtopic %q: %w", name, err)
		}
		out = append(out, Subtopic{Name: name, Queries: qs, Alternatives: alts})
	}
	return out, nil
}

// topicCore is the topic without the request that ends it (出張の旅費規程を
// 全部まとめて → 出張の旅費規程), read by the analyzer only when the
// topic holds a request word.
func topicCore(topic string) string {
	for w := range requestWords {
		if strings.Contains(topic, w) || strings.Contains(topic, strings.TrimSuffix(w, "る")) {
			_, core := question(topic)
			return core
		}
	}
	return topic
}

// defaultQueries are a subtopic's queries when none are given: its name,
// and the topic with its name.
func defaultQueries(topic, name string) []string {
	qs := []string{name}
	if !strings.Contains(fold(name), fold(topic)) {
		qs = append(qs, topic+" "+name)
	}
	return qs
}

// renderPlan is plan.md: YAML front matter, then the plan for a reader.
func renderPlan(p Plan) ([]byte, error) {
	head, err := yaml.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("write the plan: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(head)
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# 調査計画: %s\n\n", report.Text(p.Topic))
	for i, s := range p.Subtopics {
		fmt.Fprintf(&b, "%d. %s\n", i+1, report.Text(s.Name))
		for _, q := range s.Queries {
			fmt.Fprintf(&b, "   - 検索: %s\n", report.Text(q))
		}
		if len(s.Alternatives) > 0 {
			as := make([]string, len(s.Alternatives))
			for k, a := range s.Alternatives {
				as[k] = report.Text(a)
			}
			fmt.Fprintf(&b, "   - 資料の語: %s\n", strings.Join(as, "、"))
		}
	}
	return b.Bytes(), nil
}

// parsePlan reads plan.md's front matter.
func parsePlan(md []byte) (Plan, error) {
	var p Plan
	md = bytes.ReplaceAll(md, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(md, []byte("---\n"))
	if !ok {
		return p, errorf(ErrDamaged, "plan.md has no front matter")
	}
	head, _, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return p, errorf(ErrDamaged, "plan.md's front matter is not closed")
	}
	if err := yaml.Unmarshal(head, &p); err != nil {
		return p, errorf(ErrDamaged, "plan.md: %v", err)
	}
	if p.Topic == "" || CheckSlug(p.Slug) != nil || len(p.Subtopics) == 0 {
		return p, errorf(ErrDamaged, "plan.md lacks its topic, slug or subtopics")
	}
	return p, nil
}

// checkAlternatives cleans a list of alternatives: each a word or two of
// at most maxSubtopicChars characters, at most maxAlternatives of them.
func checkAlternatives(list []string) ([]string, error) {
	var out []string
	for _, a := range list {
		a = normSpace(a)
		switch {
		case a == "" || containsFold(out, a):
			continue
		case !utf8.ValidString(a) || utf8.RuneCountInString(a) > maxSubtopicChars:
			return nil, errorf(ErrInput, "the alternative %q: give a word of the documents of at most %d characters", cut(a, 40), maxSubtopicChars)
		}
		out = append(out, a)
	}
	if len(out) > maxAlternatives {
		return nil, errorf(ErrInput, "%d alternatives; give 3–5", len(out))
	}
	return out, nil
}
