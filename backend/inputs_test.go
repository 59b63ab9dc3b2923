package backend

import (
	"encoding/json"
	"testing"
)

// TestTurnInputInputs pins the `UserInput` JSON of each variant.
func TestTurnInputInputs(t *testing.T) {
	tests := []struct {
		name string
		in   TurnInput
		want string
	}{
		{"text", TurnInput{Text: "hi"}, `[{"type":"text","text":"hi","text_elements":[]}]`},
		{"empty text", TurnInput{}, `[{"type":"text","text":"","text_elements":[]}]`},
		{"text and image", TurnInput{Text: "look", Images: []string{"/a/b.png"}},
			`[{"type":"text","text":"look","text_elements":[]},{"type":"localImage","path":"/a/b.png"}]`},
		{"image alone", TurnInput{Images: []string{"/a/b.png"}}, `[{"type":"localImage","path":"/a/b.png"}]`},
		{"skill", TurnInput{Text: "go", Skills: []SkillRef{{Name: "deploy", Path: "/s/deploy/SKILL.md"}}},
			`[{"type":"text","text":"go","text_elements":[]},{"type":"skill","path":"/s/deploy/SKILL.md","name":"deploy"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in.Inputs())
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
		})
	}
}
