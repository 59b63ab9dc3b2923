package forms

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/testkit/teadrive"
)

// runCmds feeds what cmd produces back into f the way a program would,
// batches and sequences included; timers that don't fire within a moment
// (cursor blinks: teadrive.IsTimer) are dropped, every other command is
// waited for however slow the machine (a hang fails after patience).
func runCmds(f Form, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	wait := teadrive.Patience
	if teadrive.IsTimer(cmd) {
		wait = 50 * time.Millisecond
	}
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(wait):
		if wait == teadrive.Patience {
			panic("runCmds: a command hung")
		}
		return
	}
	if msg == nil {
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice { // tea.BatchMsg, sequences
		for i := 0; i < v.Len(); i++ {
			if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
				runCmds(f, c)
			}
		}
		return
	}
	runCmds(f, f.Update(msg))
}

func press(f Form, code rune) {
	k := tea.KeyPressMsg{Code: code}
	if code == tea.KeySpace {
		k.Text = " "
	}
	runCmds(f, f.Update(k))
}

func opts(labels ...string) []Option {
	out := make([]Option, len(labels))
	for i, l := range labels {
		out[i] = Option{Label: l}
	}
	return out
}

// A select or multi-select shows its title and every option when the
// form may take the rows, before and after the user toggles and moves;
// with a height budget too small for the options it says there are more.
func TestQuestionsShowEveryOption(t *testing.T) {
	five := opts("p1", "p2", "p3", "p4", "p5")
	cases := []struct {
		name   string
		spec   QuestionsSpec
		before []rune   // keys that reach the question under test
		title  string   // must stay visible
		want   []string // option labels that must all show
		hint   bool     // a "more" hint must show instead (budget too small)
	}{
		{name: "one 5-option multiselect", title: "Which packages?", want: []string{"p1", "p2", "p3", "p4", "p5"},
			spec: QuestionsSpec{Questions: []Question{{ID: "b", Question: "Which packages?", Multiple: true, Options: five}}}},
		{name: "multiselect with title and description", title: "Which packages?", want: []string{"p1", "p2", "p3", "p4", "p5"},
			spec: QuestionsSpec{Title: "Release", Description: "Pick what to ship.", Questions: []Question{
				{ID: "b", Header: "Pkgs", Question: "Which packages?", Multiple: true, Required: true, Options: five}}}},
		{name: "select then 5-option multiselect", before: []rune{tea.KeyEnter}, title: "Which packages?", want: []string{"p1", "p2", "p3", "p4", "p5"},
			spec: QuestionsSpec{Title: "Release", Questions: []Question{
				{ID: "a", Question: "Deploy now?", Options: opts("yes", "no")},
				{ID: "b", Question: "Which packages?", Multiple: true, Options: five}}}},
		{name: "3-option multiselect", title: "Which jobs?", want: []string{"ci", "docker", "docs"},
			spec: QuestionsSpec{Questions: []Question{{ID: "j", Question: "Which jobs?", Multiple: true, Options: opts("ci", "docker", "docs")}}}},
		{name: "3-option select with description", title: "Which job?", want: []string{"ci", "docker", "docs"},
			spec: QuestionsSpec{Title: "Jobs", Description: "One only.", Questions: []Question{{ID: "j", Question: "Which job?", Options: opts("ci", "docker", "docs")}}}},
		{name: "select with other", title: "Which env?", want: []string{"prod", "dev", "Other…"},
			spec: QuestionsSpec{Questions: []Question{{ID: "e", Header: "Env", Question: "Which env?", Other: true, Options: opts("prod", "dev")}}}},
		{name: "enough room under a budget", title: "Which packages?", want: []string{"p1", "p2", "p3", "p4", "p5"},
			spec: QuestionsSpec{MaxHeight: 10, Questions: []Question{{ID: "b", Question: "Which packages?", Multiple: true, Options: five}}}},
		{name: "budget too small", title: "Which packages?", hint: true,
			spec: QuestionsSpec{MaxHeight: 6, Questions: []Question{{ID: "b", Question: "Which packages?", Multiple: true, Options: five}}}},
	}
	for _, width := range []int{120, 80} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/%d", tc.name, width), func(t *testing.T) {
				q := NewQuestions(tc.spec, testLook(true, false), width)
				runCmds(q, q.Init())
				q.Resize(width, tc.spec.MaxHeight) // as the model does on the size the form asks for
				for _, k := range tc.before {
					press(q, k)
				}
				check := func(stage string) {
					t.Helper()
					v := ansi.Strip(q.View())
					if tc.spec.MaxHeight > 0 {
						if n := strings.Count(v, "\n") + 1; n > tc.spec.MaxHeight {
							t.Errorf("%s: %d rows, budget %d:\n%s", stage, n, tc.spec.MaxHeight, v)
						}
					}
					if !strings.Contains(v, tc.title) {
						t.Errorf("%s: title %q not shown:\n%s", stage, tc.title, v)
					}
					for _, w := range tc.want {
						if !strings.Contains(v, "• "+w) && !strings.Contains(v, "✓ "+w) && !strings.Contains(v, "  "+w) && !strings.Contains(v, "> "+w) {
							t.Errorf("%s: option %q not shown:\n%s", stage, w, v)
						}
					}
					if tc.hint && !strings.Contains(v, "5 options, ↑/↓ to see all") {
						t.Errorf("%s: no hint that more options exist:\n%s", stage, v)
					}
					for _, l := range strings.Split(v, "\n") {
						if ansi.StringWidth(l) > width {
							t.Errorf("%s: row %d wide: %q", stage, ansi.StringWidth(l), l)
						}
					}
				}
				check("shown")
				press(q, tea.KeySpace)
				check("after toggling the first option")
				for range 6 {
					press(q, tea.KeyDown)
				}
				check("after moving to the last option")
				for range 6 {
					press(q, tea.KeyUp)
				}
				check("after moving back up")
			})
		}
	}
}

// An elicitation's enum fields show every option as well.
func TestElicitationEnumsShowEveryOption(t *testing.T) {
	spec := ElicitationSpec{Server: "srv", Message: "Tell me", Fields: []ElicitField{
		{Name: "tags", Title: "Tags", Kind: FieldMultiEnum, Options: opts("t1", "t2", "t3", "t4", "t5")},
		{Name: "color", Title: "Color", Description: "Pick one.", Kind: FieldEnum, Required: true, Options: opts("red", "green", "blue")},
	}}
	e := NewElicitation(spec, testLook(true, false), 120)
	runCmds(e, e.Init())
	e.Resize(120, 0)
	press(e, tea.KeyEnter) // accept: the fields
	v := ansi.Strip(e.View())
	for _, w := range []string{"Tags", "t1", "t2", "t3", "t4", "t5", "Color", "red", "green", "blue"} {
		if !strings.Contains(v, w) {
			t.Errorf("%q not shown:\n%s", w, v)
		}
	}
}
