package ui

import (
	"strconv"
	"strings"

	"tandem/thread"
)

// PlanCell draws the agent's plan as a checklist (a Plan item, from
// `turn/plan/updated`): one cell per turn, each update replacing its
// steps.
type PlanCell struct {
	versioned
	Item *thread.Item
}

// Version implements Cell.
func (c *PlanCell) Version() int { return c.v + c.Item.Rev }

// Render implements Cell: "✔" done (struck through, dim), "◐" in
// progress (bold), "○" pending.
func (c *PlanCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	done := 0
	steps := c.Item.Steps
	for _, s := range steps {
		if s.Status == "completed" {
			done++
		}
	}
	lines := []string{"", st.Accent.Render("☰ Plan") + st.Dim.Render(" "+strconv.Itoa(done)+"/"+strconv.Itoa(len(steps))+" done")}
	if e := strings.TrimSpace(Sanitize(c.Item.Text())); e != "" {
		for _, w := range Wrap(e, width-4) {
			lines = append(lines, "  "+st.Italic.Render(w))
		}
	}
	for _, s := range steps {
		mark, sty := "○ ", st.Dim
		switch s.Status {
		case "completed":
			mark, sty = "✔ ", st.Dim.Strikethrough(true)
			mark = st.OK.Render(mark)
		case "inProgress":
			mark, sty = st.Running.Render("◐ "), st.Command
		default:
			mark = st.Dim.Render(mark)
		}
		w := Wrap(Sanitize(s.Step), width-6)
		for i := range w {
			w[i] = sty.Render(w[i])
		}
		lines = append(lines, Prefix(w, "  "+mark, "    ")...)
	}
	return lines
}
