package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// SetWidth lays the choices out again from the spec: a label cut in a
// narrow form shows whole once the form is wide, the highlighted choice
// stays, and no row is wider than the form.
func TestApprovalSetWidthRefits(t *testing.T) {
	const long = "Yes, and don't ask again for commands starting with `git add`"
	spec := ApprovalSpec{Title: "Run this command?", Command: "git add x", Choices: []Choice{
		{Label: "Yes, run it", Value: "accept"}, {Label: long, Value: "execpolicy"}, {Label: "No, and stop the turn", Value: "cancel"},
	}, Diff: []string{strings.Repeat("+", 100)}}
	a := NewApproval(spec, testLook(true, true), 40)
	a.Init()
	if v := ansi.Strip(a.View()); strings.Contains(v, long) {
		t.Fatalf("not cut at 40:\n%s", v)
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	for _, w := range []int{120, 30} {
		a.Resize(w, 0)
		v := ansi.Strip(a.View())
		if w == 120 && !strings.Contains(v, "> "+long) {
			t.Errorf("at %d the label is not whole and highlighted:\n%s", w, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("at %d a row is %d wide: %q", w, ansi.StringWidth(l), l)
			}
		}
	}
	if v := a.spec.Choices[a.choice].Value; v != "execpolicy" {
		t.Errorf("highlighted value = %v after the resizes; want execpolicy", v)
	}
}

// Ctrl+D and Ctrl+U never move an approval's highlight (huh would move
// it half a page: onto "don't ask again", a key away from Enter); with a
// diff they scroll it instead.
func TestApprovalHalfPageKeysKeepTheChoice(t *testing.T) {
	choices := []Choice{{Label: "Yes", Value: "accept"}, {Label: "Yes, and don't ask again", Value: "execpolicy"}, {Label: "No", Value: "decline"}}
	for _, diff := range [][]string{nil, strings.Split(strings.Repeat("+line\n", 40), "\n")} {
		a := NewApproval(ApprovalSpec{Title: "Run this command?", Command: "echo one", Choices: choices, Diff: diff}, testLook(true, true), 60)
		a.Init()
		for _, k := range []tea.KeyPressMsg{{Code: 'd', Mod: tea.ModCtrl}, {Code: 'd', Mod: tea.ModCtrl}, {Code: 'u', Mod: tea.ModCtrl}, {Code: 'd', Mod: tea.ModCtrl}} {
			a.Update(k)
		}
		if v := a.spec.Choices[a.choice].Value; v != "accept" {
			t.Errorf("diff %d lines: the highlight moved to %v", len(diff), v)
		}
	}
}

// An approval laid out again after a trip through tiny sizes draws as one
// laid out fresh at the final size: no blank rows are left in it.
func TestApprovalResizeBackLeavesNoBlankRows(t *testing.T) {
	spec := ApprovalSpec{Title: "Run this command?", Command: "git add x", Cwd: "/w", Choices: []Choice{
		{Label: "a"}, {Label: "b"}, {Label: "c"}, {Label: "d"}, {Label: "e"}, {Label: "f"}}}
	fresh := NewApproval(spec, testLook(true, true), 120)
	fresh.Init()
	fresh.Resize(120, 36)
	a := NewApproval(spec, testLook(true, true), 120)
	a.Init()
	for _, s := range [][2]int{{60, 16}, {20, 1}, {10, 1}, {30, 4}, {120, 36}} {
		a.Resize(s[0], s[1])
	}
	if got, want := a.View(), fresh.View(); got != want {
		t.Fatalf("after the resizes:\n%s\nlaid out fresh:\n%s", got, want)
	}
}
