package thread

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// describe gives the title and detail of the item kinds shown as a Tool:
// MCP and dynamic tool calls, web searches, viewed images, reviews,
// compactions and plan-mode plans. The title is "" for kinds tandem does
// not show.
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
