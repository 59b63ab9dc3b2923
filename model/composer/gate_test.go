package composer

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

var (
	enterKey = tea.KeyPressMsg{Code: tea.KeyEnter}
	downKey  = tea.KeyPressMsg{Code: tea.KeyDown}
)

// The gate: a decisive key waits; one within burstGap after it makes
// both a paste (a form that had the keys is asked to give them up); one
// after the wait lets the held key act first; anything else acts now.
func TestGate(t *testing.T) {
	xKey := tea.KeyPressMsg{Code: 'x', Text: "x"}
	tests := []struct {
		name  string
		gate  Gate
		first tea.KeyPressMsg
		gap   time.Duration // before the second key
		want  []Do          // the first key's verdict, then the second's
		draft string
		yield bool
	}{
		{"text acts at once", Gate{}, xKey, time.Second, []Do{Act, Act}, "", false},
		{"Enter waits; a key right after makes it a paste's new line", Gate{}, enterKey, time.Millisecond, []Do{Hold, Pasted}, "\n", false},
		{"Enter waits; a key after the wait lets it act first", Gate{}, enterKey, time.Second, []Do{Hold, Release}, "", false},
		{"a form's Enter waits; a paste after it takes the keys back", Gate{Form: true}, enterKey, time.Millisecond, []Do{Hold, Pasted}, "\n", true},
		{"a key no paste sends (an arrow) acts at once in a form", Gate{Form: true}, downKey, time.Millisecond, []Do{Act, Hold}, "", false},
		{"PgDn acts at once in a form: a quick second one is not lost", Gate{Form: true}, tea.KeyPressMsg{Code: tea.KeyPgDown}, time.Millisecond, []Do{Act, Hold}, "", false},
		{"text for a form's text field decides nothing", Gate{Form: true, FormWants: true}, xKey, time.Second, []Do{Act, Act}, "", false},
		{"text a form's choice list does not take waits", Gate{Form: true}, xKey, time.Millisecond, []Do{Hold, Pasted}, "x", true},
		{"Ctrl+C never waits", Gate{Form: true}, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, time.Second, []Do{Act, Hold}, "", false},
		{"nothing waits with the pager, login form or a picker open", Gate{Elsewhere: true}, enterKey, time.Millisecond, []Do{Act, Act}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, Options{})
			r.clock.step = 0
			var got []Do
			got = append(got, r.c.KeyIn(tt.first, tt.gate).Do)
			r.clock.now = r.clock.now.Add(tt.gap)
			v := r.c.KeyIn(xKey, tt.gate)
			got = append(got, v.Do)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("verdicts %v, want %v", got, tt.want)
			}
			if v.Do == Release && v.Key.Code != tt.first.Code {
				t.Errorf("released %v, want the held %v", v.Key, tt.first)
			}
			if got := r.c.Value(); got != tt.draft {
				t.Errorf("draft %q, want %q", got, tt.draft)
			}
			yielded := false
			for _, i := range r.take() {
				_, yielded = i.(act.YieldKeys)
				if yielded {
					break
				}
			}
			if yielded != tt.yield {
				t.Errorf("asked the form to yield: %v, want %v", yielded, tt.yield)
			}
			if got := r.c.burst.active; got != (v.Do == Pasted) {
				t.Errorf("a paste burst %v after %v", got, v.Do)
			}
		})
	}
}

// A held key that no key follows comes back when its wait ends, and acts
// as of its arrival; a stale wait is ignored.
func TestHoldTickReleases(t *testing.T) {
	r := newRig(t, Options{})
	if v := r.c.KeyIn(enterKey, Gate{}); v.Do != Hold || !r.c.Holding() {
		t.Fatalf("Enter: %v, holding %v", v.Do, r.c.Holding())
	}
	stale := holdTickMsg{seq: r.c.held.seq - 1}
	if v := r.c.Update(stale); v.Do != None || !r.c.Holding() {
		t.Fatalf("a stale tick: %v, holding %v", v.Do, r.c.Holding())
	}
	v := r.c.Update(r.c.Due())
	if v.Do != Release || v.Key.Code != tea.KeyEnter || r.c.Holding() {
		t.Fatalf("the tick: %v %v, holding %v", v.Do, v.Key, r.c.Holding())
	}
	var at time.Time
	r.c.Act(v, func(tea.KeyPressMsg) tea.Cmd { at = r.c.keyTime(); return nil })
	if !at.Equal(v.at) || !r.c.heldAt.IsZero() {
		t.Fatalf("the released key acted as of %v, want its arrival %v", at, v.at)
	}
}

// The composer's keys ask others for what they do: Enter submits the
// draft, Tab while a turn runs queues it, Ctrl+R searches the history;
// other keys go back to the root.
func TestKeysAsk(t *testing.T) {
	big := strings.Repeat("x\n", PasteMaxLines)
	tests := []struct {
		name  string
		busy  bool
		k     tea.KeyPressMsg
		route Route
		want  func(raw string) act.Intent // raw: the draft, its placeholder token in it
	}{
		{"Enter", false, enterKey, Handled, func(raw string) act.Intent { return act.Submit{Raw: raw, Text: "hi " + big, Hist: raw} }},
		{"Tab while a turn runs", true, tea.KeyPressMsg{Code: tea.KeyTab}, Handled, func(raw string) act.Intent { return act.Queue{Raw: raw} }},
		{"Tab while idle", false, tea.KeyPressMsg{Code: tea.KeyTab}, Typed, nil},
		{"Ctrl+R", false, tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}, Handled, func(raw string) act.Intent {
			return act.Pick{Title: "Your prompts", Hint: "this workspace's, then every workspace's · type to search · Enter to use · Esc to close", Empty: "no prompts sent yet",
				Query: raw, Items: []act.PickItem{{Label: "old", Choose: act.SetDraft{Text: "old"}}}, Ordered: true}
		}},
		{"Ctrl+C", false, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, Global, nil},
		{"Shift+Tab", false, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, Typed, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, Options{})
			r.c.AddHistory("old")
			r.facts.Busy = tt.busy
			r.typeText("hi ")
			r.c.Paste(big)
			r.take()
			raw := r.c.Value()
			if !strings.HasPrefix(raw, "hi [Pasted text #1 ") {
				t.Fatalf("draft %q, want the paste as a placeholder", raw)
			}
			if got := r.c.Key(tt.k); got != tt.route {
				t.Fatalf("route %v, want %v", got, tt.route)
			}
			var want []act.Intent
			if tt.want != nil {
				want = []act.Intent{tt.want(raw)}
			}
			if got := r.take(); !reflect.DeepEqual(got, want) {
				t.Fatalf("intents %.300v, want %.300v", got, want)
			}
		})
	}
}

// What others ask of the composer: a draft set, a prompt given back
// ahead of what was typed since, a prompt kept in the history.
func TestApply(t *testing.T) {
	r := newRig(t, Options{})
	if !r.c.Apply(act.SetDraft{Text: "first"}) || r.c.Value() != "first" {
		t.Fatalf("SetDraft: %q", r.c.Value())
	}
	r.c.Apply(act.RestoreDraft{Text: "lost"})
	if r.c.Value() != "lost\nfirst" {
		t.Fatalf("RestoreDraft: %q", r.c.Value())
	}
	r.c.Apply(act.AddHistory{Entry: "sent"})
	if h := r.c.History(); !reflect.DeepEqual(h, []string{"sent"}) {
		t.Fatalf("AddHistory: %q", h)
	}
	if r.c.Apply(act.SetNotice{Text: "not mine"}) {
		t.Fatal("took another component's intent")
	}
}
