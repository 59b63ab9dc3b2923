package sessions

import (
	"strings"

	"tandem/backend"
)

// PlayerRestart is what Player.Run yields before it plays the recording
// again from its start (a Seek back): whatever shows the playback starts
// afresh, as at the first ThreadReady.
type PlayerRestart struct{}

// Find returns the steps (0-based, in order) whose item holds text,
// compared case-insensitively: a completed item's prompt, answer,
// reasoning, command and its output, diff, tool call or review. The
// steps are those Seek takes. An empty text finds nothing.
func (p *Player) Find(text string) []int {
	text = strings.ToLower(strings.TrimSpace(text))
	if text == "" {
		return nil
	}
	var out []int
	for i, s := range p.steps {
		if t := stepText(s.msg); t != "" && strings.Contains(strings.ToLower(t), text) {
			out = append(out, i)
		}
	}
	return out
}

// Seek delivers every step up to and including step n at once (from the
// start again, after a PlayerRestart, when n was delivered already), and
// goes on from there at the playback's speed, paused or not as before.
// It never blocks; a later Seek replaces one not yet done.
func (p *Player) Seek(n int) {
	for {
		select {
		case p.seek <- n:
			return
		default:
			select {
			case <-p.seek:
			default:
			}
		}
	}
}

// stepText is the text a step shows that Find searches: a completed
// item's (each item once, when it completes).
func stepText(v any) string {
	c, ok := v.(backend.ItemCompletedEvent)
	if !ok {
		return ""
	}
	it := c.Item
	parts := []string{it.UserText(), it.Text, strings.Join(it.Summary, "\n"), it.Command, it.Review, it.Query}
	if it.AggregatedOutput != nil {
		parts = append(parts, *it.AggregatedOutput)
	}
	for _, ch := range it.Changes {
		parts = append(parts, ch.Path, ch.Diff)
	}
	if len(it.Arguments) > 0 {
		parts = append(parts, string(it.Arguments))
	}
	for _, ci := range it.ContentItems {
		parts = append(parts, ci.Text)
	}
	return strings.Join(parts, "\n")
}
