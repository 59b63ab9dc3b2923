package deck

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
)

// counted is a lane's model whose Views are counted.
type counted struct {
	*model.Model
	views *int
}

func (c counted) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := c.Model.Update(msg)
	return c, cmd
}

func (c counted) View() tea.View { *c.views++; return c.Model.View() }

// BenchmarkBackgroundDelta is one streamed delta of a lane not on screen,
// then a frame as the program draws it: the lane folds the delta and is
// never drawn (bgviews/op is 0; the focused lane's frame is the one
// drawn, reused while nothing changed).
func BenchmarkBackgroundDelta(b *testing.B) {
	var fgViews, bgViews int
	var lanes []Lane
	for i, v := range []*int{&fgViews, &bgViews} {
		m := model.New(model.Options{Now: func() time.Time { return epoch }, NoColor: true})
		lanes = append(lanes, Lane{ID: LaneID(i + 1), Model: counted{m, v}})
	}
	d := New(Options{Now: func() time.Time { return epoch }, Home: "/home/dev"}, lanes...)
	d.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	for id := LaneID(1); id <= 2; id++ {
		d.Update(LaneMsg{Lane: id, Msg: model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src"}})
	}
	turn := []tea.Msg{
		notification(b, "turn/started", map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "inProgress"}}),
		notification(b, "item/started", map[string]any{"threadId": "", "turnId": "turn-1", "item": map[string]any{"type": "agentMessage", "id": "msg-1", "text": ""}}),
	}
	for _, ev := range turn {
		d.Update(LaneMsg{Lane: 2, Msg: ev})
	}
	delta := notification(b, "item/agentMessage/delta", map[string]any{"threadId": "", "turnId": "turn-1", "itemId": "msg-1", "delta": "streaming words "})
	d.View()
	fgViews, bgViews = 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d.Update(LaneMsg{Lane: 2, Msg: delta})
		d.View()
	}
	b.StopTimer()
	b.ReportMetric(float64(bgViews)/float64(b.N), "bgviews/op")
	if bgViews != 0 {
		b.Fatalf("the background lane was drawn %d times", bgViews)
	}
}
