package backend

import (
	"encoding/json"
	"fmt"
)

// AskUserQuestionName is the dynamic tool tandem registers in
// `thread/start` so the agent can ask the user structured questions.
const AskUserQuestionName = "ask_user_question"

const askUserQuestionSchema = `{
  "type": "object",
  "properties": {
    "title": {"type": "string", "description": "Short title shown above the questions."},
    "description": {"type": "string", "description": "Why the questions are asked."},
    "questions": {
      "type": "array", "minItems": 1, "maxItems": 20,
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "description": "Key of this answer in the reply."},
          "question": {"type": "string"},
          "header": {"type": "string", "description": "Short label for the question."},
          "placeholder": {"type": "string"},
          "required": {"type": "boolean"},
          "multiple": {"type": "boolean", "description": "Allow several options to be chosen."},
          "options": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string"},
                "value": {"type": "string"},
                "description": {"type": "string"}
              },
              "required": ["label"]
            }
          }
        },
        "required": ["id", "question"]
      }
    }
  },
  "required": ["questions"]
}`

// AskUserQuestionTool returns the `dynamicTools` entry for
// ask_user_question. The model calls it with AskUserQuestionArgs; tandem
// answers with the JSON of an answers map keyed by question id.
func AskUserQuestionTool() DynamicToolSpec {
	return DynamicToolSpec{
		Type:        "function",
		Name:        AskUserQuestionName,
		Description: "Ask the user one or more questions in the terminal and wait for the answers. Use options for multiple choice; omit them for free text.",
		InputSchema: json.RawMessage(askUserQuestionSchema),
	}
}

// AskUserQuestionArgs are the arguments of an ask_user_question call.
type AskUserQuestionArgs struct {
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Questions   []Question `json:"questions"`
}

// Question is one question of ask_user_question. With Options it is a
// select (or multiselect when Multiple), without them free text.
type Question struct {
	ID          string           `json:"id"`
	Question    string           `json:"question"`
	Header      string           `json:"header"`
	Placeholder string           `json:"placeholder"`
	Required    bool             `json:"required"`
	Multiple    bool             `json:"multiple"`
	Options     []QuestionOption `json:"options"`
}

// QuestionOption is a choice of a Question; Value defaults to Label.
type QuestionOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

// ParseAskUserQuestion decodes and checks ask_user_question arguments:
// 1–20 questions, each with a non-empty, unique id and question text.
func ParseAskUserQuestion(raw json.RawMessage) (AskUserQuestionArgs, error) {
	var a AskUserQuestionArgs
	// The model sometimes sends the arguments as a JSON string.
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("ask_user_question: bad arguments: %w", err)
	}
	if len(a.Questions) < 1 || len(a.Questions) > 20 {
		return a, fmt.Errorf("ask_user_question: need 1 to 20 questions, got %d", len(a.Questions))
	}
	seen := map[string]bool{}
	for i := range a.Questions {
		q := &a.Questions[i]
		if q.ID == "" || q.Question == "" {
			return a, fmt.Errorf("ask_user_question: question %d needs an id and a question", i+1)
		}
		if seen[q.ID] {
			return a, fmt.Errorf("ask_user_question: duplicate question id %q", q.ID)
		}
		seen[q.ID] = true
		for j := range q.Options {
			if q.Options[j].Value == "" {
				q.Options[j].Value = q.Options[j].Label
			}
		}
	}
	return a, nil
}

// ParseAnswers decodes the text AnswerQuestions sends back for an
// ask_user_question call: a JSON object of question id → chosen values
// (a single string value, as other clients send, counts as one). ok is
// false for any other text (a failure or a refusal message).
func ParseAnswers(text string) (answers map[string][]string, ok bool) {
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &raw) != nil || raw == nil {
		return nil, false
	}
	answers = make(map[string][]string, len(raw))
	for id, v := range raw {
		var one string
		var many []string
		switch {
		case json.Unmarshal(v, &many) == nil:
			answers[id] = many
		case json.Unmarshal(v, &one) == nil:
			answers[id] = []string{one}
		default:
			return nil, false
		}
	}
	return answers, true
}

// AnswerLabel is how a chosen value reads: the label of the option whose
// value it is (ParseAskUserQuestion gives every option one), else the
// value itself (free text).
func (q Question) AnswerLabel(value string) string {
	for _, o := range q.Options {
		if o.Value == value {
			return o.Label
		}
	}
	return value
}
