package forms

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/keys"
)

// commandChoices are a command approval's: a yes first, a refusal that
// stops the turn last.
var commandChoices = []Choice{
	{Label: "Yes, run it", Value: "accept", Grants: true},
	{Label: "Yes, and don't ask again", Value: "session", Grants: true},
	{Label: "No, and stop the turn", Value: "cancel"},
}

// longDiff is n added lines.
func longDiff(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("+line %d", i+1)
	}
	return out
}

// A choice list stops at its ends: more Downs than choices leave the last
// one highlighted (huh's select would wrap round to the first: a yes),
// more Ups the first; Enter answers with the choice at the end.
func TestChoiceListsStopAtTheEnds(t *testing.T) {
	type form struct {
		f      Form
		answer func() any
	}
	forms := map[string]func() form{
		"approval": func() form {
			a := NewApproval(ApprovalSpec{Title: "Run this command?", Command: "touch typed.txt", Choices: commandChoices}, testLook(true, true), 100)
			return form{a, func() any { v, _ := a.Choice(); return v }}
		},
		"question": func() form {
			q := NewQuestions(QuestionsSpec{Questions: []Question{{ID: "e", Question: "Which env?", Options: opts("prod", "dev", "test")}}}, testLook(true, true), 100)
			return form{q, func() any { return q.Answers()["e"] }}
		},
		"elicitation": func() form {
			e := NewElicitation(ElicitationSpec{Server: "srv", Message: "Go on?"}, testLook(true, true), 100)
			return form{e, func() any { return e.Action() }}
		},
	}
	want := map[string][2]any{ // after the Downs, after the Ups
		"approval":    {"cancel", "accept"},
		"question":    {[]string{"test"}, []string{"prod"}},
		"elicitation": {ActionCancel, ActionAccept},
	}
	for name, mk := range forms {
		for i, keys := range [][]rune{{tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyDown},
			{tea.KeyDown, tea.KeyDown, tea.KeyUp, tea.KeyUp, tea.KeyUp, tea.KeyUp}} {
			f := mk()
			runCmds(f.f, f.f.Init())
			for _, k := range keys {
				press(f.f, k)
			}
			press(f.f, tea.KeyEnter)
			if !f.f.Done() || f.f.Aborted() {
				t.Fatalf("%s %d: not answered:\n%s", name, i, ansi.Strip(f.f.View()))
			}
			if got := f.answer(); fmt.Sprint(got) != fmt.Sprint(want[name][i]) {
				t.Errorf("%s: after %d keys the answer is %v, want %v", name, len(keys), got, want[name][i])
			}
		}
	}
}

// End highlights the last choice, and the answer is the highlighted one:
// a refusal answers at once even with the diff unread (huh's go-to-end
// left the bound value on the yes, so tandem refused it as an unread yes);
// when the last choice is the yes, End with the diff unread does not
// answer, and once read it answers yes.
func TestEndAnswersTheHighlightedChoice(t *testing.T) {
	end, enter := tea.KeyPressMsg{Code: tea.KeyEnd}, tea.KeyPressMsg{Code: tea.KeyEnter}
	a := NewApproval(ApprovalSpec{Title: "Apply these changes?", Choices: commandChoices, Diff: longDiff(60), DiffHeight: 10}, testLook(true, true), 80)
	a.Init()
	a.Update(end)
	runCmds(a, a.Update(enter))
	if v, ok := a.Choice(); !ok || v != "cancel" {
		t.Fatalf("End, Enter: answer %v %v, want cancel at once:\n%s", v, ok, ansi.Strip(a.View()))
	}

	yesLast := []Choice{{Label: "No", Value: "decline"}, {Label: "Yes", Value: "accept", Grants: true}}
	b := NewApproval(ApprovalSpec{Title: "Apply these changes?", Choices: yesLast, Diff: longDiff(60), DiffHeight: 10}, testLook(true, true), 80)
	b.Init()
	b.Update(end)
	runCmds(b, b.Update(enter))
	if b.Done() || !strings.Contains(ansi.Strip(b.View()), "read all of it first") {
		t.Fatalf("End onto an unread yes, Enter: done %v:\n%s", b.Done(), ansi.Strip(b.View()))
	}
	for b.Unread() > 0 {
		b.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	runCmds(b, b.Update(enter))
	if v, ok := b.Choice(); !ok || v != "accept" {
		t.Fatalf("read, then Enter on the highlighted yes: %v %v", v, ok)
	}
}

// The answer is the choice highlighted when the choosing key was pressed:
// a key that arrives before the form has settled (typed ahead) neither
// changes it nor cancels it.
func TestAnswerIsFixedByTheChoosingKey(t *testing.T) {
	for _, after := range []rune{tea.KeyUp, tea.KeyHome, tea.KeyEscape} {
		a := NewApproval(ApprovalSpec{Title: "Run this command?", Command: "touch typed.txt", Choices: commandChoices}, testLook(true, true), 100)
		runCmds(a, a.Init())
		press(a, tea.KeyEnd)
		cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		runCmds(a, a.Update(tea.KeyPressMsg{Code: after}))
		runCmds(a, cmd)
		if v, ok := a.Choice(); !ok || v != "cancel" {
			t.Errorf("Enter on the refusal, then %s before it settled: answer %v %v", tea.KeyPressMsg{Code: after}, v, ok)
		}
	}
	// A question's select, then the next field, which takes keys again.
	q := NewQuestions(QuestionsSpec{Questions: []Question{{ID: "e", Question: "Which env?", Options: opts("prod", "dev")},
		{ID: "n", Question: "Name?"}}}, testLook(true, true), 100)
	runCmds(q, q.Init())
	press(q, tea.KeyDown)
	cmd := q.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runCmds(q, q.Update(tea.KeyPressMsg{Code: tea.KeyUp}))
	runCmds(q, cmd)
	q.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	press(q, tea.KeyEnter)
	if got := fmt.Sprint(q.Answers()); !q.Done() || got != "map[e:[dev] n:[x]]" {
		t.Fatalf("Enter on dev, Up before it settled, then a name: done %v, answers %s", q.Done(), got)
	}
}

// reboundLook is the forms' look with form_choose rebound to keys.
func reboundLook(t *testing.T, choose ...string) Look {
	t.Helper()
	km := keys.Default()
	if err := km.Rebind(map[string][]string{"form_choose": choose}); err != nil {
		t.Fatal(err)
	}
	return Look{Theme: Theme(true, true), Keys: Keys{Huh: km.Huh(), LineUp: km.DiffLineUp, LineDown: km.DiffLineDown,
		HalfUp: km.DiffHalfUp, HalfDown: km.DiffHalfDown, PageUp: km.DiffPageUp, PageDown: km.DiffPageDown}}
}

// With form_choose rebound, the rebound key is the one that answers, it
// is checked against an unread diff like Enter was, Enter no longer
// answers, and the help line names the rebound key.
func TestReboundChooseKeyIsChecked(t *testing.T) {
	ctrlY, enter := tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: tea.KeyEnter}
	a := NewApproval(ApprovalSpec{Title: "Apply these changes?", Choices: commandChoices, Diff: longDiff(2000), DiffHeight: 10}, reboundLook(t, "ctrl+y"), 100)
	runCmds(a, a.Init())
	if v := ansi.Strip(a.View()); !strings.Contains(v, "ctrl+y submit") || strings.Contains(v, "enter") {
		t.Errorf("the help line does not name ctrl+y:\n%s", v)
	}
	for _, k := range []tea.KeyPressMsg{enter, ctrlY} {
		runCmds(a, a.Update(k))
		if a.Done() {
			v, _ := a.Choice()
			t.Fatalf("%s answered %v with 1990 lines unread", k, v)
		}
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "read all of it first: 1990 more lines") {
		t.Fatalf("ctrl+y on the unread yes says nothing:\n%s", v)
	}
	for a.Unread() > 0 {
		a.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	runCmds(a, a.Update(enter))
	if a.Done() {
		t.Fatal("Enter answered with form_choose rebound to ctrl+y")
	}
	runCmds(a, a.Update(ctrlY))
	if v, ok := a.Choice(); !ok || v != "accept" {
		t.Fatalf("ctrl+y once read: %v %v", v, ok)
	}

	// The questions' select and input answer with the rebound key too.
	q := NewQuestions(QuestionsSpec{Questions: []Question{{ID: "e", Question: "Which env?", Options: opts("prod", "dev")},
		{ID: "n", Question: "Name?"}}}, reboundLook(t, "ctrl+y"), 100)
	runCmds(q, q.Init())
	press(q, tea.KeyDown)
	runCmds(q, q.Update(enter))
	runCmds(q, q.Update(ctrlY))
	q.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	runCmds(q, q.Update(enter))
	if q.Done() {
		t.Fatal("Enter answered the questions with form_choose rebound")
	}
	runCmds(q, q.Update(ctrlY))
	if got := fmt.Sprint(q.Answers()); !q.Done() || got != "map[e:[dev] n:[x]]" {
		t.Fatalf("questions with ctrl+y: done %v, answers %s", q.Done(), got)
	}
}
