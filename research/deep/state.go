package deep

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"lwr/research/report"
)

// Phase is where a topic stands.
type Phase string

// The phases, in order, and the two ends.
const (
	PhaseSearch     Phase = "search"
	PhaseGaps       Phase = "gaps"
	PhaseSynthesize Phase = "synthesize"
	PhaseVerify     Phase = "verify"
	PhaseBlocked    Phase = "blocked"
	// PhaseConfirmed: the report says status: confirmed and the state is
	// cleared.
	PhaseConfirmed Phase = "confirmed"
)

func (p Phase) String() string { return string(p) }

// order is a phase's place in the run (blocked and confirmed last).
func (p Phase) order() int {
	return slices.Index([]Phase{PhaseSearch, PhaseGaps, PhaseSynthesize, PhaseVerify, PhaseBlocked, PhaseConfirmed}, p)
}

// ParseUntil reads the phase a run stops after: search, gaps or
// synthesize ("" for none).
func ParseUntil(s string) (Phase, error) {
	switch p := Phase(s); p {
	case "", PhaseSearch, PhaseGaps, PhaseSynthesize:
		return p, nil
	}
	return "", errorf(ErrInput, "--until %q: use search, gaps or synthesize (the run stops after that phase)", s)
}

// MaxAttempts is the verifications that may fail before a topic is
// blocked.
const MaxAttempts = 3

// State is state.json: where the topic stands. It is cleared once the
// report is confirmed.
type State struct {
	Version            int       `json:"version"`
	Slug               string    `json:"slug"`
	Topic              string    `json:"topic"`
	Phase              Phase     `json:"phase"`
	SubtopicCount      int       `json:"subtopic_count"`
	CompletedSubtopics []string  `json:"completed_subtopics"`
	StartedAt          time.Time `json:"started_at"`
	UpdatedAt          time.Time `json:"updated_at"`
	SessionID          string    `json:"session_id"`
	SynthesisAttempts  int       `json:"synthesis_attempts"`
	// LastVerifierFeedback are the problems the last verification found.
	LastVerifierFeedback []report.Problem `json:"last_verifier_feedback,omitempty"`
	// Gaps are the gap check's gaps; Followup says a _followup subtopic
	// searched them.
	Gaps     []string `json:"gaps,omitempty"`
	Followup bool     `json:"followup,omitempty"`
	// DraftSHA256 is the SHA-256 of the draft lwr wrote; Excluded the
	// evidence its synthesis leaves out because a verification of its
	// own draft failed on it.
	DraftSHA256 string   `json:"draft_sha256,omitempty"`
	Excluded    []string `json:"excluded,omitempty"`
	// Researched are the subtopics searched again because a file their
	// evidence cites changed before the verification.
	Researched []string `json:"researched,omitempty"`
}

// StateVersion is the version of state.json.
const StateVersion = 1

func parseState(data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, errorf(ErrDamaged, "state.json is not JSON (%v)", err)
	}
	if s.Version != StateVersion || s.Phase.order() < 0 || s.Phase == PhaseConfirmed {
		return nil, errorf(ErrDamaged, "state.json has version %d and phase %q", s.Version, s.Phase)
	}
	return &s, nil
}

func (s *State) done(name string) bool { return slices.Contains(s.CompletedSubtopics, name) }

// fold is text compared as the topic match compares it: NFKC, lower
// case, single spaces.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(norm.NFKC.String(s))), " ")
}

func containsFold(list []string, s string) bool {
	f := fold(s)
	for _, x := range list {
		if fold(x) == f {
			return true
		}
	}
	return false
}
