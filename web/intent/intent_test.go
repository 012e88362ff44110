package intent

import (
	"strings"
	"testing"
	"time"
)

func TestParseIntentAndTTL(t *testing.T) {
	for in, want := range map[string]Intent{"": IntentDefault, " HowTo ": IntentHowto, "factcheck": IntentFactcheck} {
		if got, err := ParseIntent(in); err != nil || got != want {
			t.Errorf("ParseIntent(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseIntent("news"); err == nil || !strings.Contains(err.Error(), "definition, howto") {
		t.Errorf("an unknown intent: %v", err)
	}
	if IntentDefinition.TTL() != 24*time.Hour || Intent("FACTCHECK").TTL() != 30*time.Minute || Intent("news").TTL() != IntentDefault.TTL() {
		t.Error("TTLs")
	}
	if len(Intents()) != 6 {
		t.Errorf("Intents() = %v", Intents())
	}
}
