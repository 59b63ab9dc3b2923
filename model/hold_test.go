package model

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/overlay"
)

// keyNow presses k and, when the composer holds it (model/composer's
// gate), lets the hold's time pass at once: the key acts as one a person
// pressed alone.
func keyNow(m *Model, k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	pace(m)
	_, cmd := m.Update(k)
	if m.composer.Holding() {
		_, cmd = m.Update(m.composer.Due())
	}
	return m, cmd
}

// release lets a key the composer holds (model/composer's gate) act now,
// as one a person pressed alone, and returns what follows; nil when no key
// is held. The key helpers use it so that no key waits on a real timer a
// loaded machine may fire after the drive gave up on it.
func release(m *Model) tea.Cmd {
	if !m.composer.Holding() {
		return nil
	}
	_, cmd := m.Update(m.composer.Due())
	return cmd
}

// due delivers the composer's next timer (the held key's wait, else the
// end of a paste burst), if one runs, as if its time had come.
func due(m *Model) tea.Cmd {
	msg := m.composer.Due()
	if msg == nil {
		return nil
	}
	_, cmd := m.Update(msg)
	return cmd
}

// enterNow is keyNow of Enter.
func enterNow(m *Model) (tea.Model, tea.Cmd) { return keyNow(m, tea.KeyPressMsg{Code: tea.KeyEnter}) }

// A paste that arrives as keys and starts with a decisive key never
// answers a form or sends the draft: the key waits, and one right after
// it makes it the paste's (#12 adversarial review).
func TestHeldKeyJoinsAPaste(t *testing.T) {
	cmdReq := `{"threadId":"t","turnId":"turn-1","itemId":"c1","startedAtMs":1,"environmentId":null,"command":"echo pwned > pwned.txt","cwd":"/w"}`
	tests := []struct {
		name   string
		form   bool
		before string // typed at a person's pace first
		paste  string // then arriving back to back
		draft  string
		sent   []string
	}{
		{name: "\\nx over an approval", form: true, paste: "\rx", draft: "\nx"},
		{name: "↓ Enter abc over an approval", form: true, paste: "\x1b[B\rabc", draft: "\nabc"},
		{name: "\\rworld after typed hello", before: "hello", paste: "\rworld", draft: "hello\nworld"},
		{name: "Enter alone still sends", before: "hello", paste: "\r", sent: []string{"hello"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			now := time.Unix(1_000_000, 0)
			m := ready(t, f, Options{Clock: act.FuncClock(func() time.Time { return now })})
			rep := &replies{}
			if tt.form {
				m.Update(decodeReq(t, backend.MethodCommandApproval, `"r1"`, cmdReq, rep))
				m.Update(overlay.FocusMsg{})
				if !m.overlay.HasKeys() {
					t.Fatal("the form does not have the keys")
				}
			}
			for _, r := range tt.before {
				now = now.Add(typeGap)
				keyNow(m, tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			now = now.Add(time.Second)
			var cmds []tea.Cmd
			for _, s := range pasteKeys(tt.paste) {
				now = now.Add(pasteGap)
				_, cmd := m.Update(s)
				cmds = append(cmds, cmd)
			}
			now = now.Add(time.Second)
			if m.composer.Holding() {
				cmds = append(cmds, due(m))
			}
			cmd := due(m) // the burst's end
			if tt.form {
				drive(t, m, append(cmds, cmd)...) // every message, the form's own too
			} else {
				settle(t, m, append(cmds, cmd)...) // a turn's ticks never end: settle stops at them
			}
			if got := m.State().Composer; got != tt.draft {
				t.Errorf("draft %q, want %q", got, tt.draft)
			}
			if !slices.Equal(f.turns, tt.sent) {
				t.Errorf("turns %q, want %q", f.turns, tt.sent)
			}
			if tt.form && len(rep.All()) != 0 {
				t.Fatalf("the paste answered the approval: %v", rep.All())
			}
		})
	}
}

// pasteKeys is s as a terminal types it: runes, '\r' as Enter, "\x1b[B"
// as Down.
func pasteKeys(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for len(s) > 0 {
		switch {
		case len(s) >= 3 && s[:3] == "\x1b[B":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyDown})
			s = s[3:]
			continue
		case s[0] == '\r':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		default:
			out = append(out, tea.KeyPressMsg{Code: rune(s[0]), Text: s[:1]})
		}
		s = s[1:]
	}
	return out
}
