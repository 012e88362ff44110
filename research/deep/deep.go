package deep

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"lwr/config"
	"lwr/index"
	"lwr/research"
	"lwr/research/local"
	"lwr/research/report"
)

// Folder is the deep research folder inside the research output folder.
const Folder = "deep"

// The files of a topic's folder.
const (
	PlanFile    = "plan.md"
	StateFile   = "state.json"
	ReportFile  = "report.md"
	EventsFile  = "events.jsonl"
	FindingsDir = "findings"
	lockFile    = ".lock"
	startLock   = ".start.lock"
)

// Options say where deep research keeps its topics and how it searches.
type Options struct {
	// Workspace is the folder the research output folder is in
	// (absolute).
	Workspace string
	// OutputDir is the research output folder relative to the workspace
	// (config's research.output_dir default when empty); the topics are
	// in its deep/ folder.
	OutputDir string
	// Sources is where cited documents are read (the source root and the
	// index's rules).
	Sources report.Sources
	// Research is the research as configured (web providers and cache,
	// limits, query understanding); each search sets its query and local
	// searcher.
	Research research.Options
	// OpenLocal opens the local searcher when a phase searches; nil
	// fails those phases.
	OpenLocal func(context.Context) (local.Searcher, error)
	// Now is the clock; nil means time.Now. Rand makes slugs and session
	// ids; nil means crypto/rand.
	Now  func() time.Time
	Rand io.Reader
	// LockTimeout bounds the wait for a topic another process works on;
	// 0 means 10s.
	LockTimeout time.Duration
	// Checkpoint, when set, is called after each event is logged (with
	// its name) and at the points between two writes of a phase
	// (PointFindingsWritten, PointDraftWritten, PointSentinelWritten):
	// where a crash test stops the process.
	Checkpoint func(point string)
	Logger     *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.OutputDir == "" {
		o.OutputDir = config.DefaultResearch().OutputDir
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

func (o Options) now() time.Time { return o.Now().UTC().Truncate(time.Second) }

// Root is the deep research folder: <workspace>/<output dir>/deep.
func (o Options) Root() string { return filepath.Join(o.Workspace, o.withDefaults().OutputDir, Folder) }

// checkRoot checks the options and that the deep research folder stays
// inside the workspace.
func (o Options) checkRoot() (string, error) {
	if !filepath.IsAbs(o.Workspace) {
		return "", errorf(ErrInput, "the workspace %q is not absolute", o.Workspace)
	}
	if !filepath.IsLocal(o.OutputDir) {
		return "", errorf(ErrOutsideWorkspace, "the output folder %q is not inside the workspace; set research.output_dir to a relative folder such as result/research", o.OutputDir)
	}
	root := o.Root()
	if err := confine(o.Workspace, root); err != nil {
		return "", err
	}
	return root, nil
}

// topic is one topic's folder, locked while a call works on it.
type topic struct {
	o      Options
	slug   string
	dir    string
	plan   Plan
	state  *State // nil: cleared (confirmed) or never written (an interrupted start)
	unlock func()
	search *searcher
	// attempts and researched are the state's, once it is cleared: what
	// the confirmed research went through (from events.jsonl when it was
	// confirmed by another call).
	attempts   int
	researched []string
}

// openTopic locks a topic and reads its plan and state; a confirmed
// report whose state a crash left is recovered (the state cleared).
func (o Options) openTopic(ctx context.Context, slug string) (*topic, error) {
	o = o.withDefaults()
	if err := CheckSlug(slug); err != nil {
		return nil, err
	}
	root, err := o.checkRoot()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, slug)
	if err := confine(o.Workspace, dir); err != nil {
		return nil, err
	}
	if st, err := os.Stat(filepath.Join(dir, PlanFile)); err != nil || !st.Mode().IsRegular() {
		return nil, errorf(ErrNoTopic, "no deep research %s in %s; lwr deep status lists the topics of this workspace", slug, root)
	}
	unlock, err := lock(ctx, filepath.Join(dir, lockFile), o.LockTimeout, "the topic "+slug)
	if err != nil {
		return nil, err
	}
	cleanTemps(dir)
	cleanTemps(filepath.Join(dir, FindingsDir))
	t := &topic{o: o, slug: slug, dir: dir, unlock: unlock}
	if err := t.load(); err != nil {
		unlock()
		return nil, err
	}
	if err := t.recover(); err != nil {
		unlock()
		return nil, err
	}
	return t, nil
}

func (t *topic) close() {
	if t.search != nil && t.search.local != nil {
		t.search.local.Close()
	}
	t.unlock()
}

func (t *topic) path(name ...string) string {
	return filepath.Join(append([]string{t.dir}, name...)...)
}

func (t *topic) load() error {
	data, err := readBounded(t.path(PlanFile), maxPlanFile)
	if err != nil {
		return fmt.Errorf("read the plan of %s: %w", t.slug, err)
	}
	if t.plan, err = parsePlan(data); err != nil {
		return fmt.Errorf("the plan of %s: %w", t.slug, err)
	}
	data, err = readBounded(t.path(StateFile), maxStateFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.state = nil
	case err != nil:
		return fmt.Errorf("read the state of %s: %w", t.slug, err)
	default:
		if t.state, err = parseState(data); err != nil {
			return fmt.Errorf("the state of %s: %w (remove it to start the topic's phases again from its findings)", t.slug, err)
		}
	}
	return nil
}

// reportStatus is the status report.md's front matter gives ("" when
// there is no report).
func (t *topic) reportStatus() string {
	data, err := readBounded(t.path(ReportFile), maxReportFile)
	if err != nil {
		return ""
	}
	return reportStatusOf(data)
}

func reportStatusOf(md []byte) string {
	m, _, _ := report.FrontMatter(md)
	if s, ok := m["status"].(string); ok {
		return s
	}
	return ""
}

// recover is the seed's phase 0: a report that says status: confirmed
// while its state is still there was confirmed by a run that stopped
// before it cleared the state; the state is cleared now. A topic whose
// start stopped before its state was written gets it.
func (t *topic) recover() error {
	confirmed := t.reportStatus() == report.DeepConfirmed
	switch {
	case t.state != nil && confirmed:
		if err := t.event(EventRecovered, nil); err != nil {
			return err
		}
		return t.clearState()
	case t.state == nil && !confirmed:
		t.state = newState(t.plan, t.o.now(), t.o.Rand)
		return t.saveState()
	}
	return nil
}

func newState(p Plan, now time.Time, rnd io.Reader) *State {
	var id [16]byte
	_, _ = io.ReadFull(rnd, id[:])
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	h := hex.EncodeToString(id[:])
	return &State{
		Version: StateVersion, Slug: p.Slug, Topic: p.Topic, Phase: PhaseSearch, SubtopicCount: len(p.Subtopics),
		CompletedSubtopics: []string{}, StartedAt: now, UpdatedAt: now, SessionID: h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:],
	}
}

func (t *topic) saveState() error {
	t.state.UpdatedAt = t.o.now()
	data, err := json.MarshalIndent(t.state, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(t.path(StateFile), append(data, '\n'))
}

func (t *topic) clearState() error {
	if err := os.Remove(t.path(StateFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clear the state of %s: %w", t.slug, err)
	}
	syncDir(t.dir)
	t.state = nil
	return nil
}

// event logs an event and passes its checkpoint.
func (t *topic) event(name string, fields map[string]any) error {
	e := Event{Time: t.o.Now().UTC(), Event: name, Slug: t.slug, Fields: fields}
	if t.state != nil {
		e.Session = t.state.SessionID
	}
	if err := appendEvent(t.path(EventsFile), e); err != nil {
		return err
	}
	t.checkpoint(name)
	return nil
}

func (t *topic) checkpoint(point string) {
	if t.o.Checkpoint != nil {
		t.o.Checkpoint(point)
	}
}

// searcher opens the local searcher at the first search of a call.
func (t *topic) searcher(ctx context.Context) (*searcher, error) {
	if t.search != nil {
		return t.search, nil
	}
	if t.o.OpenLocal == nil {
		return nil, errors.New("deep research: no local searcher to search with")
	}
	ls, err := t.o.OpenLocal(ctx)
	if err != nil {
		return nil, err
	}
	t.search = &searcher{opts: t.o, local: ls, files: map[string]*index.File{}}
	return t.search, nil
}

// phase is where the topic stands.
func (t *topic) phase() Phase {
	if t.state == nil {
		return PhaseConfirmed
	}
	return t.state.Phase
}

// Result is where a topic stands after a call.
type Result struct {
	Slug  string `json:"slug"`
	Topic string `json:"topic"`
	Phase Phase  `json:"phase" jsonschema:"search, gaps, synthesize, verify, blocked or confirmed"`
	// Status is in_progress (no report yet), draft, confirmed, blocked, or
	// verify_failed (the report given failed verification; problems say
	// why, and another may be given).
	Status string `json:"status" jsonschema:"in_progress, draft, confirmed, blocked or verify_failed"`
	// Report is report.md's absolute path, "" while there is none.
	Report   string           `json:"report" jsonschema:"report.md's absolute path; empty while there is none"`
	Attempts int              `json:"synthesis_attempts" jsonschema:"verifications that failed, 3 at the most"`
	Problems []report.Problem `json:"problems,omitempty" jsonschema:"what the verification found, each one sentence naming the field and what to write"`
	// SearchedAgain are the subtopics searched again because a file they
	// cite changed before the verification.
	SearchedAgain []string `json:"searched_again,omitempty" jsonschema:"subtopics searched again because a file their evidence cites changed"`
}

// The statuses of a Result.
const (
	StatusInProgress   = "in_progress"
	StatusDraft        = "draft"
	StatusConfirmed    = "confirmed"
	StatusBlocked      = "blocked"
	StatusVerifyFailed = "verify_failed"
)

func (t *topic) result() *Result {
	r := &Result{Slug: t.slug, Topic: t.plan.Topic, Phase: t.phase(), Status: StatusInProgress}
	if _, err := os.Stat(t.path(ReportFile)); err == nil {
		r.Report = t.path(ReportFile)
		r.Status = StatusDraft
	}
	switch {
	case t.state == nil:
		r.Status = StatusConfirmed
	case t.state.Phase == PhaseBlocked:
		r.Status, r.Problems = StatusBlocked, t.state.LastVerifierFeedback
	}
	if t.state != nil {
		r.Attempts, r.SearchedAgain = t.state.SynthesisAttempts, t.state.Researched
	} else {
		r.Attempts, r.SearchedAgain = t.confirmedCounts()
	}
	return r
}

// confirmedCounts are the failed verifications and the subtopics searched
// again of a confirmed topic: as its confirmation left them, else as
// events.jsonl's last REPORT_CONFIRMED says.
func (t *topic) confirmedCounts() (int, []string) {
	if t.attempts > 0 || len(t.researched) > 0 {
		return t.attempts, t.researched
	}
	es, err := ReadEvents(t.path(EventsFile))
	if err != nil {
		return 0, nil
	}
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Event == EventReportConfirmed {
			n, _ := es[i].Fields["attempts"].(float64)
			return int(n), nil
		}
	}
	return 0, nil
}

// RunOptions say how far a run goes and what it verifies.
type RunOptions struct {
	// Until stops the run after this phase (search, gaps, synthesize).
	Until Phase
	// SkipWeb searches the local documents only.
	SkipWeb bool
	// Report is a report the caller wrote (an agent's): it is verified
	// instead of lwr's synthesis, after the remaining search and gap
	// phases; a report without its JSON comment gets the one its text
	// implies.
	Report []byte
}

// Run runs a topic's phases from where its state stands: the subtopics
// not yet searched, the gap check, the synthesis and the verification,
// up to RunOptions.Until. A verification of lwr's own draft that fails
// synthesizes it again (without the evidence that failed); a report the
// caller gave that fails is returned with its problems
// (StatusVerifyFailed). The third failure blocks the topic.
func Run(ctx context.Context, o Options, slug string, ro RunOptions) (*Result, error) {
	if ro.Report != nil && ro.Until != "" {
		return nil, errorf(ErrInput, "a report to verify runs to the end; give it without --until")
	}
	if len(ro.Report) > maxReportFile {
		return nil, errorf(ErrInput, "the report is over %d bytes", maxReportFile)
	}
	t, err := o.openTopic(ctx, slug)
	if err != nil {
		return nil, err
	}
	defer t.close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ph := t.phase()
		if ro.Until != "" && ph.order() > ro.Until.order() {
			return t.result(), nil
		}
		switch ph {
		case PhaseConfirmed, PhaseBlocked:
			return t.result(), nil
		case PhaseSearch:
			if err := t.searchPending(ctx, "", nil, ro.SkipWeb); err != nil {
				return nil, err
			}
		case PhaseGaps:
			if _, err := t.gapCheck(ctx, nil, ro.SkipWeb); err != nil {
				return nil, err
			}
		case PhaseSynthesize:
			if ro.Report != nil {
				t.state.Phase = PhaseVerify
				if err := t.saveState(); err != nil {
					return nil, err
				}
				continue
			}
			if err := t.synthesize(); err != nil {
				return nil, err
			}
		case PhaseVerify:
			md, own := ro.Report, false
			if md == nil {
				if md, err = readBounded(t.path(ReportFile), maxReportFile); err != nil {
					// The draft is gone: synthesize it again.
					t.state.Phase = PhaseSynthesize
					if err := t.saveState(); err != nil {
						return nil, err
					}
					continue
				}
				own = sha(md) == t.state.DraftSHA256
			} else {
				md, _ = report.Complete(md)
			}
			ps := t.verify(md)
			if len(ps) == 0 {
				if err := t.confirm(md); err != nil {
					return nil, err
				}
				return t.result(), nil
			}
			if err := t.fail(md, ps, own); err != nil {
				return nil, err
			}
			if ro.Report != nil && t.state.Phase != PhaseBlocked {
				r := t.result()
				r.Status, r.Problems = StatusVerifyFailed, ps
				return r, nil
			}
		}
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// findingsOf reads the findings of a subtopic ("" name: the followup).
func (t *topic) findingsOf(i int, name string) (*Findings, string, error) {
	p := t.path(FindingsDir, findingsName(i, name))
	data, err := readBounded(p, maxFindingsFile)
	if err != nil {
		return nil, p, fmt.Errorf("read the findings of %q: %w", name, err)
	}
	f, err := parseFindings(data)
	if err != nil {
		return nil, p, fmt.Errorf("the findings of %q: %w (remove the file and run the topic again to search it again)", name, err)
	}
	return f, p, nil
}

// allFindings are the findings of the searched subtopics in plan order,
// then the followup's.
func (t *topic) allFindings() ([]*Findings, error) {
	var out []*Findings
	for i, s := range t.plan.Subtopics {
		if t.state != nil && !t.state.done(s.Name) {
			continue
		}
		f, _, err := t.findingsOf(i, s.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if t.state == nil || t.state.Followup {
		if f, _, err := t.findingsOf(0, Followup); err == nil {
			out = append(out, f)
		} else if t.state != nil {
			return nil, err
		}
	}
	return out, nil
}

// searchPending searches the subtopics not yet searched (only name's
// when it is given), each one's findings written before the state says
// it is done; the last one moves the topic to the gap check.
func (t *topic) searchPending(ctx context.Context, name string, alts []string, skipWeb bool) error {
	for i, sub := range t.plan.Subtopics {
		if t.state.done(sub.Name) || name != "" && sub.Name != name {
			continue
		}
		s, err := t.searcher(ctx)
		if err != nil {
			return err
		}
		for _, a := range alts {
			if !containsFold(sub.Alternatives, a) {
				sub.Alternatives = append(sub.Alternatives, a)
			}
		}
		f, err := s.searchSubtopic(ctx, t.plan.Topic, sub, skipWeb, false, nil)
		if err != nil {
			return fmt.Errorf("search the subtopic %q of %s: %w", sub.Name, t.slug, err)
		}
		data, err := renderFindings(f)
		if err != nil {
			return err
		}
		if err := mkdir(t.path(FindingsDir)); err != nil {
			return err
		}
		if err := writeAtomic(t.path(FindingsDir, findingsName(i, sub.Name)), data); err != nil {
			return err
		}
		t.checkpoint(PointFindingsWritten)
		t.state.CompletedSubtopics = append(t.state.CompletedSubtopics, sub.Name)
		if len(t.state.CompletedSubtopics) >= len(t.plan.Subtopics) {
			t.state.Phase = PhaseGaps
		}
		if err := t.saveState(); err != nil {
			return err
		}
		if err := t.event(EventSubtopicDone, map[string]any{"subtopic": sub.Name, "evidence": len(f.Evidence), "gaps": len(f.Gaps)}); err != nil {
			return err
		}
	}
	return nil
}

// gapCheck is phase 3, two branches only: no gap → synthesize; gaps →
// one _followup subtopic searched with the gaps' queries (and the
// caller's alternatives), then synthesize.
func (t *topic) gapCheck(ctx context.Context, alts []string, skipWeb bool) (*Findings, error) {
	all, err := t.allFindings()
	if err != nil {
		return nil, err
	}
	var gaps []Gap
	var texts []string
	for _, f := range all {
		if f.Subtopic == Followup {
			continue
		}
		for _, g := range f.Gaps {
			if g.Text = normSpace(g.Text); g.Text != "" && !containsFold(texts, g.Text) {
				texts = append(texts, g.Text)
				gaps = append(gaps, g)
			}
		}
	}
	if len(gaps) == 0 {
		t.state.Gaps, t.state.Followup, t.state.Phase = nil, false, PhaseSynthesize
		if err := t.saveState(); err != nil {
			return nil, err
		}
		return nil, t.event(EventGapCheckComplete, map[string]any{"gaps": 0})
	}
	sub := Subtopic{Name: Followup, Alternatives: alts}
	for _, g := range gaps {
		if q := normSpace(g.Query); q != "" && !containsFold(sub.Queries, q) && len(sub.Queries) < maxFollowups {
			sub.Queries = append(sub.Queries, q)
		}
	}
	s, err := t.searcher(ctx)
	if err != nil {
		return nil, err
	}
	skip := map[string][]Evidence{}
	for _, f := range all {
		skip[f.Subtopic] = f.Evidence
	}
	f, err := s.searchSubtopic(ctx, t.plan.Topic, sub, skipWeb, true, skip)
	if err != nil {
		return nil, fmt.Errorf("search the gaps of %s: %w", t.slug, err)
	}
	data, err := renderFindings(f)
	if err != nil {
		return nil, err
	}
	if err := mkdir(t.path(FindingsDir)); err != nil {
		return nil, err
	}
	if err := writeAtomic(t.path(FindingsDir, findingsName(0, Followup)), data); err != nil {
		return nil, err
	}
	t.checkpoint(PointFindingsWritten)
	t.state.Gaps, t.state.Followup, t.state.Phase = texts, true, PhaseSynthesize
	if err := t.saveState(); err != nil {
		return nil, err
	}
	return f, t.event(EventGapCheckComplete, map[string]any{"gaps": len(texts), "followup_evidence": len(f.Evidence)})
}

// synthesize is phase 4: report.md written as a draft from the findings,
// then the state moved to verify.
func (t *topic) synthesize() error {
	all, err := t.allFindings()
	if err != nil {
		return err
	}
	if !t.hasEvidence(all) {
		// No report without evidence: the topic is blocked, its findings
		// kept, with the sentence that says what to do.
		st := t.state
		st.Phase = PhaseBlocked
		st.LastVerifierFeedback = []report.Problem{{Code: report.ProblemNoEvidence, Message: report.NoEvidenceSentence}}
		if err := t.saveState(); err != nil {
			return err
		}
		return t.event(EventBlocked, map[string]any{"reason": report.ProblemNoEvidence, "attempts": st.SynthesisAttempts})
	}
	md, err := t.render(all)
	if err != nil {
		return err
	}
	if err := writeAtomic(t.path(ReportFile), md); err != nil {
		return err
	}
	t.checkpoint(PointDraftWritten)
	t.state.DraftSHA256, t.state.Phase = sha(md), PhaseVerify
	if err := t.saveState(); err != nil {
		return err
	}
	return t.event(EventReportDraft, map[string]any{"attempt": t.state.SynthesisAttempts + 1})
}

// hasEvidence reports whether the findings hold evidence that a
// verification has not left out.
func (t *topic) hasEvidence(all []*Findings) bool {
	for _, f := range all {
		for _, e := range f.Evidence {
			if t.state == nil || !slices.Contains(t.state.Excluded, e.Key) {
				return true
			}
		}
	}
	return false
}

// confirm is a passed verification, in the seed's order: report.md with
// status: confirmed first (the sentinel), then the event, then the
// state cleared.
func (t *topic) confirm(md []byte) error {
	conf, err := setStatus(md, report.DeepConfirmed)
	if err != nil {
		return err
	}
	if err := writeAtomic(t.path(ReportFile), conf); err != nil {
		return err
	}
	t.checkpoint(PointSentinelWritten)
	t.attempts, t.researched = t.state.SynthesisAttempts, t.state.Researched
	if err := t.event(EventReportConfirmed, map[string]any{"attempts": t.state.SynthesisAttempts, "searched_again": len(t.state.Researched)}); err != nil {
		return err
	}
	return t.clearState()
}

// fail is a failed verification: one more attempt with the problems
// kept as the feedback; lwr's own draft also leaves out, next time, the
// evidence the problems name; the third failure blocks the topic.
func (t *topic) fail(md []byte, ps []report.Problem, own bool) error {
	st := t.state
	st.SynthesisAttempts++
	st.LastVerifierFeedback = ps[:min(len(ps), 50)]
	st.Phase = PhaseSynthesize
	var again []string // subtopics to search again: a file they cite changed
	followup := false
	if own {
		failed := t.failedEvidence(md, ps)
		changed := t.changedEvidence(failed)
		for _, k := range failed {
			if subs, ok := changed[k]; ok {
				for _, n := range subs {
					if n == Followup {
						followup = true
					} else if !slices.Contains(again, n) {
						again = append(again, n)
					}
				}
				continue
			}
			if !containsFold(st.Excluded, k) {
				st.Excluded = append(st.Excluded, k)
			}
		}
	}
	researched := slices.Clone(again)
	if followup {
		researched = append(researched, Followup)
	}
	if len(researched) > 0 {
		// The findings are searched again, and rewritten: what the file
		// says now is the evidence. The follow-up is the gap check's.
		st.CompletedSubtopics = slices.DeleteFunc(st.CompletedSubtopics, func(n string) bool { return slices.Contains(again, n) })
		for _, n := range researched {
			if !slices.Contains(st.Researched, n) {
				st.Researched = append(st.Researched, n)
			}
		}
		st.Phase = PhaseGaps
		if len(again) > 0 {
			st.Phase = PhaseSearch
		}
		if t.search != nil {
			t.search.files = map[string]*index.File{} // read the files anew
		}
	}
	if st.SynthesisAttempts >= MaxAttempts {
		st.Phase = PhaseBlocked
	}
	if err := t.saveState(); err != nil {
		return err
	}
	if err := t.event(EventVerifyFail, map[string]any{"attempt": st.SynthesisAttempts, "problems": len(ps), "search_again": len(researched)}); err != nil {
		return err
	}
	if st.Phase == PhaseBlocked {
		return t.event(EventBlocked, map[string]any{"attempts": st.SynthesisAttempts})
	}
	if len(researched) > 0 {
		return t.event(EventSearchAgain, map[string]any{"subtopics": len(again), "followup": followup, "reason": "cited_file_changed"})
	}
	return nil
}

// changedEvidence are the evidence among keys whose lines the file does
// not say any more (changed, shortened or gone since the search), with
// the subtopics whose findings hold them.
func (t *topic) changedEvidence(keys []string) map[string][]string {
	out := map[string][]string{}
	all, err := t.allFindings()
	if err != nil {
		return out
	}
	now := map[string]*index.File{}
	for _, f := range all {
		for _, e := range f.Evidence {
			if e.Kind != "local" || !slices.Contains(keys, e.Key) {
				continue
			}
			file, ok := now[e.Path]
			if !ok {
				file, _ = index.ReadFile(t.o.Sources.Root, t.o.Sources.Rules, e.Path)
				now[e.Path] = file
			}
			if file == nil || e.End > len(file.Lines) || e.Start < 1 || !slices.Equal(file.Lines[e.Start-1:e.End], e.Lines) {
				if !slices.Contains(out[e.Key], f.Subtopic) {
					out[e.Key] = append(out[e.Key], f.Subtopic)
				}
			}
		}
	}
	return out
}

// SearchResult is the findings of one subtopic (deep_search).
type SearchResult struct {
	Slug     string    `json:"slug"`
	Subtopic string    `json:"subtopic"`
	Findings *Findings `json:"findings"`
	// Path is the findings file; Markdown its text.
	Path     string `json:"path"`
	Markdown string `json:"markdown"`
	// Searched is false when the subtopic had been searched before (a
	// finished subtopic is not searched again).
	Searched bool     `json:"searched"`
	Pending  []string `json:"pending" jsonschema:"the subtopics not yet searched"`
	Phase    Phase    `json:"phase"`
}

// Search searches one subtopic of a topic (the next one not yet
// searched when name is ""), with alternatives added to its searches,
// and returns its findings; a subtopic searched before is not searched
// again.
func Search(ctx context.Context, o Options, slug, name string, alts []string, skipWeb bool) (*SearchResult, error) {
	alts, err := checkAlternatives(alts)
	if err != nil {
		return nil, err
	}
	t, err := o.openTopic(ctx, slug)
	if err != nil {
		return nil, err
	}
	defer t.close()
	idx := -1
	for i, s := range t.plan.Subtopics {
		if name == "" && t.state != nil && !t.state.done(s.Name) || name != "" && fold(s.Name) == fold(name) {
			idx = i
			break
		}
	}
	if idx < 0 {
		if name == "" {
			return nil, errorf(ErrInput, "every subtopic of %s has been searched; check the gaps next (deep_gaps)", slug)
		}
		return nil, errorf(ErrInput, "%s has no subtopic %q; its subtopics are %s", slug, cut(name, 60), subtopicNames(t.plan))
	}
	sub := t.plan.Subtopics[idx]
	res := &SearchResult{Slug: slug, Subtopic: sub.Name}
	if t.state != nil && t.state.Phase == PhaseSearch && !t.state.done(sub.Name) {
		if err := t.searchPending(ctx, sub.Name, alts, skipWeb); err != nil {
			return nil, err
		}
		res.Searched = true
	}
	f, p, err := t.findingsOf(idx, sub.Name)
	if err != nil {
		return nil, err
	}
	md, _ := readBounded(p, maxFindingsFile)
	res.Findings, res.Path, res.Markdown, res.Phase = f, p, string(md), t.phase()
	res.Pending = []string{}
	for _, s := range t.plan.Subtopics {
		if t.state != nil && !t.state.done(s.Name) {
			res.Pending = append(res.Pending, s.Name)
		}
	}
	return res, nil
}

func subtopicNames(p Plan) string {
	s := ""
	for i, x := range p.Subtopics {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q", x.Name)
	}
	return s
}

// GapResult is the gap check of a topic (deep_gaps).
type GapResult struct {
	Slug string   `json:"slug"`
	Gaps []string `json:"gaps" jsonschema:"the gaps of the findings, without repeats; empty: none"`
	// Followup is the _followup subtopic's findings, nil when there were
	// no gaps.
	Followup *Findings `json:"followup,omitempty"`
	Path     string    `json:"path,omitempty"`
	Markdown string    `json:"markdown,omitempty"`
	Phase    Phase     `json:"phase"`
}

// Gaps runs the gap check of a topic whose subtopics are all searched
// (alternatives added to the _followup's searches), or returns the one
// that ran.
func Gaps(ctx context.Context, o Options, slug string, alts []string, skipWeb bool) (*GapResult, error) {
	alts, err := checkAlternatives(alts)
	if err != nil {
		return nil, err
	}
	t, err := o.openTopic(ctx, slug)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if t.phase() == PhaseSearch {
		var pending []string
		for _, s := range t.plan.Subtopics {
			if !t.state.done(s.Name) {
				pending = append(pending, s.Name)
			}
		}
		return nil, errorf(ErrInput, "search the subtopics of %s first (deep_search): %d of %d are not searched yet (%s)", slug, len(pending), len(t.plan.Subtopics), cut(fmt.Sprint(pending), 120))
	}
	if t.phase() == PhaseGaps {
		if _, err := t.gapCheck(ctx, alts, skipWeb); err != nil {
			return nil, err
		}
	}
	res := &GapResult{Slug: slug, Gaps: []string{}, Phase: t.phase()}
	if t.state != nil && t.state.Gaps != nil {
		res.Gaps = t.state.Gaps
	}
	if f, p, err := t.findingsOf(0, Followup); err == nil && (t.state == nil || t.state.Followup) {
		md, _ := readBounded(p, maxFindingsFile)
		res.Followup, res.Path, res.Markdown = f, p, string(md)
		if t.state == nil {
			for _, g := range f.Queries {
				res.Gaps = append(res.Gaps, g)
			}
		}
	}
	return res, nil
}

// SubtopicStatus is one subtopic's state.
type SubtopicStatus struct {
	Name     string   `json:"name"`
	Queries  []string `json:"queries"`
	Status   string   `json:"status" jsonschema:"pending or done"`
	Findings string   `json:"findings,omitempty" jsonschema:"the findings file, once searched"`
	Evidence int      `json:"evidence"`
	Gaps     int      `json:"gaps"`
}

// TopicStatus is where one topic stands (lwr deep status, deep_status).
type TopicStatus struct {
	Slug      string           `json:"slug"`
	Topic     string           `json:"topic"`
	Phase     Phase            `json:"phase"`
	Status    string           `json:"status" jsonschema:"in_progress, draft, confirmed or blocked"`
	Dir       string           `json:"dir"`
	Report    string           `json:"report,omitempty"`
	Subtopics []SubtopicStatus `json:"subtopics"`
	Followup  *SubtopicStatus  `json:"followup,omitempty"`
	Gaps      []string         `json:"gaps,omitempty"`
	Attempts  int              `json:"synthesis_attempts"`
	// SearchedAgain are the subtopics searched again because a file they
	// cite changed before the verification.
	SearchedAgain []string `json:"searched_again,omitempty"`
	// LastVerifierFeedback are the last verification's problems.
	LastVerifierFeedback []report.Problem `json:"last_verifier_feedback,omitempty"`
	StartedAt            string           `json:"started_at,omitempty"`
	UpdatedAt            string           `json:"updated_at,omitempty"`
}

// Status says where a topic stands, without waiting for a run that works
// on it (the files it reads are each written atomically).
func Status(o Options, slug string) (*TopicStatus, error) {
	o = o.withDefaults()
	if err := CheckSlug(slug); err != nil {
		return nil, err
	}
	root, err := o.checkRoot()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, slug)
	if err := confine(o.Workspace, dir); err != nil {
		return nil, err
	}
	t := &topic{o: o, slug: slug, dir: dir, unlock: func() {}}
	if _, err := os.Stat(t.path(PlanFile)); err != nil {
		return nil, errorf(ErrNoTopic, "no deep research %s in %s; lwr deep status lists the topics of this workspace", slug, root)
	}
	if err := t.load(); err != nil {
		return nil, err
	}
	confirmed := t.reportStatus() == report.DeepConfirmed
	if confirmed {
		t.state = nil // a state left beside the sentinel is recovered by the next run
	}
	st := &TopicStatus{Slug: slug, Topic: t.plan.Topic, Dir: dir, Subtopics: []SubtopicStatus{}}
	r := t.result()
	if t.state == nil && !confirmed {
		r.Phase, r.Status = PhaseSearch, StatusInProgress
	}
	st.Phase, st.Status, st.Report = r.Phase, r.Status, r.Report
	st.Attempts, st.SearchedAgain = r.Attempts, r.SearchedAgain
	if t.state != nil {
		st.LastVerifierFeedback, st.Gaps = t.state.LastVerifierFeedback, t.state.Gaps
		st.StartedAt, st.UpdatedAt = t.state.StartedAt.Format(time.RFC3339), t.state.UpdatedAt.Format(time.RFC3339)
	}
	sub := func(i int, name string, queries []string) SubtopicStatus {
		ss := SubtopicStatus{Name: name, Queries: queries, Status: "pending"}
		if f, p, err := t.findingsOf(i, name); err == nil && (t.state == nil || t.state.done(name) || name == Followup) {
			ss.Status, ss.Findings, ss.Evidence, ss.Gaps = "done", p, len(f.Evidence), len(f.Gaps)
			if ss.Queries == nil {
				ss.Queries = f.Queries
			}
		}
		return ss
	}
	for i, s := range t.plan.Subtopics {
		st.Subtopics = append(st.Subtopics, sub(i, s.Name, s.Queries))
	}
	if t.state == nil || t.state.Followup {
		if f := sub(0, Followup, nil); f.Status == "done" {
			st.Followup = &f
		}
	}
	return st, nil
}

// List is the status of every topic of the workspace, by slug.
func List(o Options) ([]TopicStatus, error) {
	o = o.withDefaults()
	root, err := o.checkRoot()
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return []TopicStatus{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the topics in %s: %w", root, err)
	}
	out := []TopicStatus{}
	for _, e := range ents {
		if !e.IsDir() || CheckSlug(e.Name()) != nil {
			continue
		}
		st, err := Status(o, e.Name())
		if err != nil {
			if errors.Is(err, ErrNoTopic) {
				continue
			}
			return nil, err
		}
		out = append(out, *st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out, nil
}

// StartInput is a topic to start.
type StartInput struct {
	Topic string
	// Subtopics are the caller's; none: lwr proposes 3–5.
	Subtopics []Subtopic
	// Refresh starts the topic again although a confirmed report of it
	// (or a research of it in progress) is there.
	Refresh bool
}

// Started is a topic started, or the one of the same topic already there.
type Started struct {
	Slug  string `json:"slug"`
	State *State `json:"state"`
	Plan  Plan   `json:"plan"`
	// Existing says the topic was researched before: "active" (in
	// progress: resume it) or "confirmed" (its report is there: show it,
	// or start again with refresh). Empty for a new topic.
	Existing string `json:"existing,omitempty" jsonschema:"active or confirmed when the same topic was started before (then slug is that one's); empty for a new topic"`
	Report   string `json:"report,omitempty"`
	Dir      string `json:"dir"`
}

// Start is phase 1: the plan and the state of a new topic (its
// subtopics the caller's, or 3–5 proposed from the question's facets and
// the documents' headings), or, when the same topic is in progress or
// confirmed in the workspace and Refresh is false, that one.
func Start(ctx context.Context, o Options, in StartInput) (*Started, error) {
	o = o.withDefaults()
	topicText, err := checkTopic(in.Topic)
	if err != nil {
		return nil, err
	}
	subs, err := checkSubtopics(topicText, in.Subtopics)
	if err != nil {
		return nil, err
	}
	root, err := o.checkRoot()
	if err != nil {
		return nil, err
	}
	if err := mkdir(root); err != nil {
		return nil, err
	}
	unlock, err := lock(ctx, filepath.Join(root, startLock), o.LockTimeout, "the deep research folder "+root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if !in.Refresh {
		if s, err := sameTopic(o, topicText); err != nil || s != nil {
			return s, err
		}
	}
	var slug, dir string
	for range 8 {
		if slug, err = NewSlug(topicText, o.now(), o.Rand); err != nil {
			return nil, err
		}
		dir = filepath.Join(root, slug)
		if err = os.Mkdir(dir, 0o755); err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, unwritable(dir, err)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create a folder for the topic in %s: %w", root, err)
	}
	// The new topic's lock: a run of it that comes before its start has
	// written the state waits (and cleans no temp file of the start).
	unlockTopic, err := lock(ctx, filepath.Join(dir, lockFile), o.LockTimeout, "the topic "+slug)
	if err != nil {
		removeTopic(dir)
		return nil, err
	}
	t := &topic{o: o, slug: slug, dir: dir, unlock: unlockTopic}
	started := false
	defer func() {
		if t.search != nil && t.search.local != nil {
			t.search.local.Close()
		}
		unlockTopic()
		if !started {
			// Nothing half written: a start that failed leaves no topic.
			removeTopic(dir)
		}
	}()
	if len(subs) == 0 {
		s, err := t.searcher(ctx)
		if err != nil {
			return nil, err
		}
		if subs, err = s.propose(ctx, topicText); err != nil {
			return nil, err
		}
	}
	t.plan = Plan{Status: PlanStatus, Topic: topicText, Slug: slug, Subtopics: subs}
	t.state = newState(t.plan, o.now(), o.Rand)
	if err := mkdir(t.path(FindingsDir)); err != nil {
		return nil, err
	}
	if err := t.event(EventStarted, map[string]any{"topic_chars": len([]rune(topicText))}); err != nil {
		return nil, err
	}
	planMD, err := renderPlan(t.plan)
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(t.path(PlanFile), planMD); err != nil {
		return nil, err
	}
	if err := t.saveState(); err != nil {
		return nil, err
	}
	started = true
	if err := t.event(EventPlanWritten, map[string]any{"subtopics": len(subs)}); err != nil {
		return nil, err
	}
	return &Started{Slug: slug, State: t.state, Plan: t.plan, Dir: dir}, nil
}

// sameTopic is the research of the same topic in the workspace: one in
// progress (not blocked) first, else a confirmed one.
func sameTopic(o Options, topicText string) (*Started, error) {
	all, err := List(o)
	if err != nil {
		return nil, err
	}
	var confirmed *TopicStatus
	for i := range all {
		st := &all[i]
		if fold(st.Topic) != fold(topicText) {
			continue
		}
		switch st.Status {
		case StatusConfirmed:
			if confirmed == nil {
				confirmed = st
			}
		case StatusBlocked:
		default:
			return startedOf(o, st, "active")
		}
	}
	if confirmed != nil {
		return startedOf(o, confirmed, "confirmed")
	}
	return nil, nil
}

func startedOf(o Options, st *TopicStatus, existing string) (*Started, error) {
	t := &topic{o: o, slug: st.Slug, dir: st.Dir, unlock: func() {}}
	if err := t.load(); err != nil {
		return nil, err
	}
	if existing == "confirmed" {
		t.state = nil
	}
	return &Started{Slug: st.Slug, State: t.state, Plan: t.plan, Existing: existing, Report: st.Report, Dir: st.Dir}, nil
}

// removeTopic removes the folder of a topic whose start failed: its files
// one by one, then the folder (a tree removed in one call fails on some
// Windows file systems, Wine's among them).
func removeTopic(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	os.RemoveAll(dir)
}
