package thread

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// describe gives the title and detail of the item kinds shown as a Tool:
// MCP and dynamic tool calls, web searches (with their results), viewed
// and generated images, sub-agent tool calls and activity, waits, hook
// prompts, reviews, compactions and plan-mode plans. The title is "" for
// kinds it does not know (the fold shows those as a quiet line).
func describe(it backend.Item) (title, detail string) {
	switch it.Type {
	case "mcpToolCall":
		return fmt.Sprintf("%s.%s(%s)", it.Server, it.Tool, ansi.Truncate(it.ArgumentsText(), 60, "…")), it.ResultText()
	case "dynamicToolCall":
		if title, detail, ok := describeQuestions(it); ok {
			return title, detail
		}
		return fmt.Sprintf("tool %s(%s)", it.Tool, ansi.Truncate(it.ArgumentsText(), 60, "…")), toolResult(it)
	case "webSearch":
		return "Searched the web: " + it.Query, webResults(it.Results)
	case "imageView":
		return "Viewed image " + it.Path, ""
	case "imageGeneration":
		title = "Generated an image"
		if it.Status != "" && it.Status != "completed" {
			title += " (" + it.Status + ")"
		}
		if it.SavedPath != nil && *it.SavedPath != "" {
			title += " → " + *it.SavedPath
		}
		if it.RevisedPrompt != nil {
			detail = *it.RevisedPrompt
		}
		return title, detail
	case "collabAgentToolCall":
		return describeCollab(it)
	case "subAgentActivity":
		who := it.AgentPath
		if who == "" {
			who = ShortThread(it.AgentThreadID)
		}
		title = "Sub-agent " + who + " " + map[string]string{"started": "started", "interacted": "was sent input", "interrupted": "was interrupted", "completed": "finished"}[it.Activity]
		if it.Model != nil && *it.Model != "" {
			detail = "model " + *it.Model
		}
		return strings.TrimSpace(title), detail
	case "sleep":
		d := time.Duration(0)
		if it.DurationMs != nil {
			d = time.Duration(*it.DurationMs) * time.Millisecond
		}
		return "Waited " + d.Round(time.Second).String(), ""
	case "hookPrompt":
		var parts []string
		for _, f := range it.Fragments {
			parts = append(parts, f.Text)
		}
		return "hook prompt: text a hook added to the prompt", strings.Join(parts, "\n")
	case "enteredReviewMode":
		return "Review started", it.Review
	case "exitedReviewMode":
		return "Review finished", it.Review
	case "contextCompaction":
		return "Context compacted", ""
	case "plan":
		return "Plan", it.Text
	}
	return "", ""
}

// describeQuestions shows an ask_user_question call as what was asked
// and what the user answered ("Tone? → Pirate"), not as raw JSON; ok is
// false when the arguments are not a valid question set.
func describeQuestions(it backend.Item) (title, detail string, ok bool) {
	if it.Tool != backend.AskUserQuestionName {
		return "", "", false
	}
	args, err := backend.ParseAskUserQuestion(it.Arguments)
	if err != nil {
		return "", "", false
	}
	title = "Asked: " + args.Title
	if args.Title == "" {
		title = "Asked: " + args.Questions[0].Question
		if len(args.Questions) > 1 {
			title = fmt.Sprintf("Asked %d questions", len(args.Questions))
		}
	}
	result := toolResult(it)
	answers, answered := backend.ParseAnswers(result)
	if !answered {
		return title, result, true // still waiting, or refused: the server's words
	}
	lines := make([]string, 0, len(args.Questions))
	for _, q := range args.Questions {
		var labels []string
		for _, v := range answers[q.ID] {
			labels = append(labels, q.AnswerLabel(v))
		}
		a := strings.Join(labels, ", ")
		if a == "" {
			a = "(no answer)"
		}
		lines = append(lines, q.Question+" → "+a)
	}
	return title, strings.Join(lines, "\n"), true
}

// toolResult is the detail of a dynamicToolCall item: the text of its
// reply's content items.
func toolResult(it backend.Item) string {
	var parts []string
	for _, c := range it.ContentItems {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 && it.Success != nil && !*it.Success {
		return "failed"
	}
	return strings.Join(parts, "\n")
}

// collabVerbs say what a collab tool call does to its agents.
var collabVerbs = map[string]string{
	"spawnAgent": "Spawned", "sendInput": "Sent input to", "sendMessage": "Messaged", "followupTask": "Gave a follow-up to",
	"resumeAgent": "Resumed", "wait": "Waiting for", "closeAgent": "Closed", "interruptAgent": "Interrupted", "listAgents": "Listed",
}

// describeCollab shows a sub-agent tool call: what was done to which
// agents, the prompt, and each agent's state and last message.
func describeCollab(it backend.Item) (title, detail string) {
	verb := collabVerbs[it.Tool]
	if verb == "" {
		verb = it.Tool
	}
	var who []string
	for _, id := range it.ReceiverThreadIDs {
		who = append(who, ShortThread(id))
	}
	title = verb + " sub-agent"
	switch {
	case it.Tool == "listAgents":
		title = "Listed the sub-agents"
	case len(who) > 1:
		title = verb + " sub-agents " + strings.Join(who, ", ")
	case len(who) == 1:
		title += " " + who[0]
	}
	if it.Tool == "wait" && it.Status == "completed" {
		title = strings.Replace(title, "Waiting for", "Waited for", 1)
	}
	var lines []string
	if it.Prompt != nil && strings.TrimSpace(*it.Prompt) != "" {
		lines = append(lines, "prompt: "+strings.TrimSpace(*it.Prompt))
	}
	if it.Model != nil && *it.Model != "" {
		lines = append(lines, "model: "+*it.Model)
	}
	for _, id := range slices.Sorted(maps.Keys(it.AgentsStates)) {
		st := it.AgentsStates[id]
		l := ShortThread(id) + ": " + st.Status
		if st.Message != nil && strings.TrimSpace(*st.Message) != "" {
			l += " — " + Preview(*st.Message, 120)
		}
		lines = append(lines, l)
	}
	return title, strings.Join(lines, "\n")
}

// webResults lists a web search's results by title (or URL), when the
// server sent any.
func webResults(raw json.RawMessage) string {
	var rs []struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &rs) != nil {
		return ""
	}
	var lines []string
	for _, r := range rs {
		switch {
		case r.Title != "" && r.URL != "":
			lines = append(lines, r.Title+" — "+r.URL)
		case r.Title != "" || r.URL != "":
			lines = append(lines, r.Title+r.URL)
		}
	}
	return strings.Join(lines, "\n")
}

// ShortThread is a thread id cut for showing: "01a2…c210".
func ShortThread(id string) string {
	if len(id) > 13 {
		return id[:4] + "…" + id[len(id)-4:]
	}
	return id
}

// Preview is s's first line, trimmed and cut to n runes ("…" last).
func Preview(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
