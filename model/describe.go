package model

import (
	"fmt"
	"strings"

	"tandem/backend"
	"tandem/ui"
)

// describeItem gives a title and detail for item kinds without their own
// cell.
func describeItem(it backend.Item) (string, string) {
	switch it.Type {
	case "mcpToolCall":
		return fmt.Sprintf("%s.%s(%s)", it.Server, it.Tool, ui.Truncate(it.ArgumentsText(), 60)), it.ResultText()
	case "dynamicToolCall":
		if title, detail, ok := describeQuestions(it); ok {
			return title, detail
		}
		return fmt.Sprintf("tool %s(%s)", it.Tool, ui.Truncate(it.ArgumentsText(), 60)), toolResult(it)
	case "webSearch":
		return "Searched the web: " + it.Query, ""
	case "imageView":
		return "Viewed image " + it.Path, ""
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

// fileDiffs are a file change's files as the cell shows them, with paths
// under the thread's workspace made relative to it ("greet.sh", as in
// Codex's own TUI); other paths stay as the server gave them.
func (m *Model) fileDiffs(changes []backend.FileChange) []ui.FileDiff {
	out := make([]ui.FileDiff, 0, len(changes))
	for _, ch := range changes {
		out = append(out, ui.FileDiff{Path: relativeTo(m.threadCwd, ch.Path), Kind: ch.Kind.Type, Diff: ch.Diff})
	}
	return out
}

// relativeTo is p relative to dir when p lies under dir (paths use "/", as
// codex sends them on every platform it serves here), else p.
func relativeTo(dir, p string) string {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" || !strings.HasPrefix(p, dir+"/") {
		return p
	}
	return p[len(dir)+1:]
}
