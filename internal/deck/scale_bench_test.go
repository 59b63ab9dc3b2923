package deck

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// probe is a lane's model whose State reads and Views are counted.
type probe struct {
	*model.Model
	states, views *int
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

func (p probe) View() tea.View     { *p.views++; return p.Model.View() }
func (p probe) State() model.State { *p.states++; return p.Model.State() }

// turnsOf is n finished turns of thread tag: a prompt, an answer in
// three paragraphs and, with files, a fileChange of that many paths
// under /w/tag (each thread its own files: no conflict).
func turnsOf(tag string, n, files int) []backend.Turn {
	var out []backend.Turn
	for i := range n {
		items := []backend.Item{
			{Type: "userMessage", ID: fmt.Sprintf("%s-u%d", tag, i), Content: []backend.UserContent{{Type: "text", Text: fmt.Sprintf("%s question %d", tag, i)}}},
			{Type: "agentMessage", ID: fmt.Sprintf("%s-a%d", tag, i), Text: fmt.Sprintf("Answer **%s %d**.\n\n- one\n- two\n\nA closing paragraph with `code` in it.", tag, i)},
		}
		if files > 0 {
			var ch []backend.FileChange
			for j := range files {
				ch = append(ch, backend.FileChange{Path: fmt.Sprintf("/w/%s/file%d.go", tag, (i+j)%20), Diff: "@@ -1 +1 @@\n-a\n+b\n"})
			}
			items = append(items, backend.Item{Type: "fileChange", ID: fmt.Sprintf("%s-f%d", tag, i), Status: "completed", Changes: ch})
		}
		out = append(out, backend.Turn{ID: fmt.Sprintf("%s-t%d", tag, i), Status: backend.TurnCompleted, Items: items})
	}
	return out
}

// scaleDeck is a 120×40 deck of n real lanes, lane i (1…n) holding a
// thread of turns[i-1] finished turns (three changed files a turn),
// counted by states and views.
func scaleDeck(tb testing.TB, opts Options, turns []int, states, views *int) *Model {
	return scaleDeckFiles(tb, opts, turns, 3, states, views)
}

// scaleDeckFiles is scaleDeck with files changed files a turn.
func scaleDeckFiles(tb testing.TB, opts Options, turns []int, files int, states, views *int) *Model {
	var lanes []Lane
	for i := range turns {
		m := model.New(model.Options{Now: func() time.Time { return epoch }, NoColor: true})
		lanes = append(lanes, Lane{ID: LaneID(i + 1), Model: probe{m, states, views}})
	}
	opts.Now = func() time.Time { return epoch.Add(time.Hour) }
	opts.Home = "/home/dev"
	d := New(opts, lanes...)
	d.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i, n := range turns {
		tag := fmt.Sprintf("lane%d", i+1)
		d.Update(LaneMsg{Lane: LaneID(i + 1), Msg: model.SessionReadyMsg{
			Client: fakeDriver{}, Model: "gpt-test", Cwd: "/home/dev/src/" + tag, ThreadID: "thread-" + tag,
			Created: epoch.Unix(), History: turnsOf(tag, n, files),
		}})
	}
	return d
}

// BenchmarkListIdle50 is the command center's list of 50 idle threads
// (real lanes, 20 finished turns each, three changed files a turn) drawn
// as the program draws it: "frame" is a View with nothing changed (the
// program's frame after any message the list ignores), "key+frame" a
// cursor move and its View. Per frame it reports the lanes' State reads
// and Views (states/op, views/op: a listed lane is drawn from what the
// deck keeps, so both are 0) and the Overlaps calls (overlaps/op: each
// pair of lanes, when the list asks them per frame).
func BenchmarkListIdle50(b *testing.B) {
	turns := make([]int, 50)
	for i := range turns {
		turns[i] = 20
	}
	for _, step := range []string{"frame", "key+frame"} {
		b.Run(step, func(b *testing.B) {
			var states, views, overlaps int
			opts := Options{List: true, Overlaps: func(a, b Thread) []string { overlaps++; return SamePaths(a, b) }}
			d := scaleDeck(b, opts, turns, &states, &views)
			if v := d.View().Content; !strings.Contains(v, "50 threads") {
				b.Fatalf("the list does not show 50 threads:\n%s", v)
			}
			down, up := tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyUp}
			states, views, overlaps = 0, 0, 0
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if step == "key+frame" {
					k := down
					if i++; i%50 >= 25 {
						k = up
					}
					d.Update(k)
				}
				_ = d.View().Content
			}
			b.ReportMetric(float64(states)/float64(b.N), "states/op")
			b.ReportMetric(float64(views)/float64(b.N), "views/op")
			b.ReportMetric(float64(overlaps)/float64(b.N), "overlaps/op")
		})
	}
}

// BenchmarkSwitch1000Turns is switching, in the list, to a lane holding a
// thread of 1,000 finished turns that was loaded while off screen and
// never drawn: the open key (Enter on its row) through the deck's Update
// and the first View, as the program runs them. The View must show the
// thread's newest turn (else the benchmark fails). "drawn-before" is the
// same switch to a lane that was on screen once, then got 20 more turns
// while off screen. files=0: a prompt and a three-paragraph answer a
// turn; files=3: and a fileChange item of three files.
func BenchmarkSwitch1000Turns(b *testing.B) {
	for _, c := range []struct {
		files int
		drawn bool
	}{{0, false}, {0, true}, {3, false}, {3, true}} {
		drawn := c.drawn
		name := fmt.Sprintf("files=%d/never-drawn", c.files)
		if drawn {
			name = fmt.Sprintf("files=%d/drawn-before", c.files)
		}
		b.Run(name, func(b *testing.B) {
			var states, views int
			enter := tea.KeyPressMsg{Code: tea.KeyEnter}
			f4 := tea.KeyPressMsg{Code: tea.KeyF4}
			newest := "lane2 999" // the newest answer
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				base := 1000
				if drawn {
					base = 980
				}
				d := scaleDeckFiles(b, Options{List: true}, []int{1, base}, c.files, &states, &views)
				d.Update(tea.KeyPressMsg{Code: tea.KeyDown}) // the big thread's row
				if drawn {
					d.Update(enter)
					_ = d.View()
					d.Update(f4) // back to the list
					_ = d.View()
					more := turnsOf("lane2", 1000, c.files)[980:]
					for _, t := range more {
						d.Update(LaneMsg{Lane: 2, Msg: backend.TurnStartedEvent{Turn: backend.Turn{ID: t.ID}}})
						for _, it := range t.Items {
							d.Update(LaneMsg{Lane: 2, Msg: backend.ItemCompletedEvent{Item: it}})
						}
						d.Update(LaneMsg{Lane: 2, Msg: backend.TurnCompletedEvent{Turn: backend.Turn{ID: t.ID, Status: backend.TurnCompleted}}})
					}
				}
				_ = d.View()
				b.StartTimer()
				d.Update(enter)
				v := d.View().Content
				b.StopTimer()
				if !strings.Contains(v, newest) {
					b.Fatalf("the first View after the switch lacks %q:\n%s", newest, v)
				}
				b.StartTimer()
			}
		})
	}
}
