// Package intent owns what a web query asks for (definition, howto,
// troubleshooting, factcheck, comparison) and how long a result for each
// stays fresh: query understanding reads it from a question, the web cache
// keeps results by it. It imports no lwr package, so that what only reads
// a question's intent links no network.
package intent

import (
	"fmt"
	"strings"
	"time"
)

// Intent is what a query asks for; it sets how long its results stay in
// the cache.
type Intent string

// The intents of a web search.
const (
	IntentDefinition      Intent = "definition"
	IntentHowto           Intent = "howto"
	IntentTroubleshooting Intent = "troubleshooting"
	IntentFactcheck       Intent = "factcheck"
	IntentComparison      Intent = "comparison"
	IntentDefault         Intent = "default"
)

// Intents lists every intent, in the order the help texts give them.
func Intents() []Intent {
	return []Intent{IntentDefinition, IntentHowto, IntentTroubleshooting, IntentFactcheck, IntentComparison, IntentDefault}
}

var intentTTL = map[Intent]time.Duration{
	IntentDefinition:      24 * time.Hour,
	IntentHowto:           4 * time.Hour,
	IntentTroubleshooting: time.Hour,
	IntentFactcheck:       30 * time.Minute,
	IntentComparison:      2 * time.Hour,
	IntentDefault:         2 * time.Hour,
}

// ParseIntent reads an intent's name, in any case; "" is IntentDefault.
func ParseIntent(s string) (Intent, error) {
	i := Intent(strings.ToLower(strings.TrimSpace(s)))
	if i == "" {
		return IntentDefault, nil
	}
	if _, ok := intentTTL[i]; !ok {
		names := make([]string, 0, len(intentTTL))
		for _, k := range Intents() {
			names = append(names, string(k))
		}
		return IntentDefault, fmt.Errorf("unknown intent %q; use %s", s, strings.Join(names, ", "))
	}
	return i, nil
}

func (i Intent) String() string { return string(i) }

// TTL is how long a result for the intent stays fresh; an unknown intent
// has the default TTL.
func (i Intent) TTL() time.Duration {
	if d, ok := intentTTL[i.Normalized()]; ok {
		return d
	}
	return intentTTL[IntentDefault]
}

// Normalized is the intent in lower case, IntentDefault when empty (an
// intent read from a cache file or an agent's JSON is not checked).
func (i Intent) Normalized() Intent {
	i = Intent(strings.ToLower(strings.TrimSpace(string(i))))
	if i == "" {
		return IntentDefault
	}
	return i
}
