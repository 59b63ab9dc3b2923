package model

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Deltas of a reasoning summary and of a sub-agent's answer are coalesced
// as an answer's are: a delta alone leaves the frame drawn (its cell is
// drawn again at the next frame tick), so a burst costs one render a
// frame, not one a delta. Each case draws the item once, sends a delta
// that changes what it shows, and checks the frame holds until the tick.
func TestStreamingDeltasAreCoalesced(t *testing.T) {
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	reasoning := func(d string) tea.Msg {
		e := backend.ReasoningSummaryDeltaEvent{ItemID: "rs", Delta: d}
		e.TurnID = "turn-1"
		return e
	}
	sub := func(d string) tea.Msg {
		e := backend.AgentMessageDeltaEvent{ItemID: "cm", Delta: d}
		e.ThreadID, e.TurnID = child, "ct1"
		return backend.SubAgentEvent{Event: e}
	}
	cases := []struct {
		name        string
		first, next tea.Msg
		show        func(m *Model)
		want        string // what next shows once drawn
	}{
		{"a reasoning summary", reasoning("**Reading the code**\n\n"), reasoning("done.\n\n**Writing the fix**"), nil, "Writing the fix"},
		{"a sub-agent's answer, its pane shown", sub("The child says"), sub(" something new"),
			func(m *Model) { m.panes.ShowAgent(child) }, "something new"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := benchModel(t)
			m.Update(tc.first)
			if tc.show != nil {
				tc.show(m)
			}
			m.Update(m.stat.NextTick())
			before := plain(m)
			m.Update(tc.next)
			if got := plain(m); got != before {
				t.Fatalf("a delta alone drew a new frame:\n%s\n--- was:\n%s", got, before)
			}
			m.Update(m.stat.NextTick())
			if got := plain(m); !strings.Contains(got, tc.want) {
				t.Fatalf("the tick did not draw the delta (%q):\n%s", tc.want, got)
			}
		})
	}
}

// A cursor blink or a spinner tick changes only the bottom: it does not
// draw an answer's held deltas (each key cancels a blink, which comes
// back as a message; drawing the answer for it cost a second frame per
// key). The frame tick draws them.
func TestBlinkAndSpinDoNotFlushTheAnswer(t *testing.T) {
	delta := func(d string) tea.Msg {
		e := backend.AgentMessageDeltaEvent{ItemID: "am", Delta: d}
		e.TurnID = "turn-1"
		return e
	}
	for _, msg := range []tea.Msg{cursor.BlinkMsg{}, spinner.TickMsg{}} {
		t.Run(fmt.Sprintf("%T", msg), func(t *testing.T) {
			m := benchModel(t)
			m.Update(delta("The answer begins"))
			m.Update(m.stat.NextTick())
			if got := plain(m); !strings.Contains(got, "The answer begins") {
				t.Fatalf("the tick did not draw the answer:\n%s", got)
			}
			m.Update(delta(" and goes on"))
			m.Update(msg)
			if got := plain(m); strings.Contains(got, "goes on") {
				t.Fatalf("%T drew the held delta:\n%s", msg, got)
			}
			m.Update(m.stat.NextTick())
			if got := plain(m); !strings.Contains(got, "goes on") {
				t.Fatalf("the tick did not draw the delta:\n%s", got)
			}
		})
	}
}
