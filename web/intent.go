package web

import "lwr/web/intent"

// Intent is what a query asks for; it sets how long its results stay in
// the cache (web/intent).
type Intent = intent.Intent

// The intents of a web search.
const (
	IntentDefinition      = intent.IntentDefinition
	IntentHowto           = intent.IntentHowto
	IntentTroubleshooting = intent.IntentTroubleshooting
	IntentFactcheck       = intent.IntentFactcheck
	IntentComparison      = intent.IntentComparison
	IntentDefault         = intent.IntentDefault
)

// Intents lists every intent, in the order the help texts give them.
func Intents() []Intent { return intent.Intents() }

// ParseIntent reads an intent's name, in any case; "" is IntentDefault.
func ParseIntent(s string) (Intent, error) { return intent.ParseIntent(s) }
