package ui

import (
	"strconv"
	"strings"
)

// PlanStep is one step of a PlanCell; Status is "pending", "inProgress" or
// "completed".
type PlanStep struct {
	Step, Status string
}

// PlanCell is the agent's plan as a checklist, from `turn/plan/updated`.
// One cell per turn; each update replaces its steps.
type PlanCell struct {
	versioned
	TurnID      string
	Explanation string
	Steps       []PlanStep
}

// Set replaces the plan.
func (c *PlanCell) Set(explanation string, steps []PlanStep) {
	c.Explanation, c.Steps = explanation, steps
	c.Touch()
}

// Render implements Cell: "✔" done (struck through, dim), "◐" in
// progress (bold), "○" pending.
func (c *PlanCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	done := 0
	for _, s := range c.Steps {
		if s.Status == "completed" {
			done++
		}
	}
	lines := []string{"", st.Accent.Render("☰ Plan") + st.Dim.Render(" "+strconv.Itoa(done)+"/"+strconv.Itoa(len(c.Steps))+" done")}
	if e := strings.TrimSpace(Sanitize(c.Explanation)); e != "" {
		for _, w := range Wrap(e, width-4) {
			lines = append(lines, "  "+st.Italic.Render(w))
		}
	}
	for _, s := range c.Steps {
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
