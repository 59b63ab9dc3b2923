package thread

import (
	"encoding/json"
	"testing"

	"tandem/backend"
)

// An ask_user_question call reads as what was asked and what the user
// chose (option labels, not values); anything else keeps the generic
// tool title.
func TestDescribeQuestions(t *testing.T) {
	args := `{"title":"Greeting style","questions":[` +
		`{"id":"tone","question":"Which tone?","options":[{"label":"Pirate","value":"pirate"},{"label":"Formal"}]},` +
		`{"id":"extra","question":"Anything else?"}]}`
	one := `{"questions":[{"id":"q","question":"Proceed?","options":[{"label":"Yes"},{"label":"No"}]}]}`
	item := func(tool, args, result string, ok *bool) backend.Item {
		it := backend.Item{Type: "dynamicToolCall", Tool: tool, Arguments: json.RawMessage(args), Success: ok}
		if result != "" {
			it.ContentItems = []backend.ContentItem{{Type: "inputText", Text: result}}
		}
		return it
	}
	no := false
	cases := []struct {
		name          string
		it            backend.Item
		title, detail string
	}{
		{"answered", item(backend.AskUserQuestionName, args, `{"tone":["pirate"],"extra":["more emoji"]}`, nil),
			"Asked: Greeting style", "Which tone? → Pirate\nAnything else? → more emoji"},
		{"label as value, unanswered question", item(backend.AskUserQuestionName, args, `{"tone":["Formal"]}`, nil),
			"Asked: Greeting style", "Which tone? → Formal\nAnything else? → (no answer)"},
		{"no title, one question", item(backend.AskUserQuestionName, one, `{"q":["Yes"]}`, nil),
			"Asked: Proceed?", "Proceed? → Yes"},
		{"a single string answer", item(backend.AskUserQuestionName, one, `{"q":"No"}`, nil),
			"Asked: Proceed?", "Proceed? → No"},
		{"not answers", item(backend.AskUserQuestionName, one, `{"q":5}`, nil), "Asked: Proceed?", `{"q":5}`},
		{"pending", item(backend.AskUserQuestionName, one, "", nil), "Asked: Proceed?", ""},
		{"refused", item(backend.AskUserQuestionName, one, "the user dismissed the questions", &no),
			"Asked: Proceed?", "the user dismissed the questions"},
		{"bad arguments", item(backend.AskUserQuestionName, `{"questions":[]}`, "", nil),
			`tool ask_user_question({"questions":[]})`, ""},
		{"another tool", item("lookup", `{"q":1}`, "found", nil), `tool lookup({"q":1})`, "found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			title, detail := describe(tc.it)
			if title != tc.title || detail != tc.detail {
				t.Errorf("describe = %q, %q; want %q, %q", title, detail, tc.title, tc.detail)
			}
		})
	}
}
