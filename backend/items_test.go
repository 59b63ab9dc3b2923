package backend

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestItemResultText(t *testing.T) {
	cases := []struct {
		name, item, want string
	}{
		{"no result yet", `{"type":"mcpToolCall","result":null}`, ""},
		{"error wins", `{"type":"mcpToolCall","error":{"message":"boom"},"result":{"content":[{"type":"text","text":"x"}]}}`, "error: boom"},
		{"text blocks", `{"type":"mcpToolCall","result":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}`, "a\nb"},
		{"other blocks as JSON", `{"type":"mcpToolCall","result":{"content":[{"type":"image","data":"QQ=="}]}}`, `{"type":"image","data":"QQ=="}`},
		{"unexpected shape", `{"type":"mcpToolCall","result":[1,2]}`, `[1,2]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var it Item
			if err := json.Unmarshal([]byte(c.item), &it); err != nil {
				t.Fatal(err)
			}
			if got := it.ResultText(); got != c.want {
				t.Fatalf("ResultText = %q, want %q", got, c.want)
			}
		})
	}
}

func TestElicitDefaultsAndValues(t *testing.T) {
	defaults := []struct {
		raw  string
		want any
	}{
		{``, nil}, {`null`, nil}, {`"x"`, "x"}, {`3.5`, 3.5}, {`true`, true},
		{`["a","b"]`, []string{"a", "b"}}, {`{"k":1}`, nil},
	}
	for _, d := range defaults {
		p := ElicitProperty{Default: json.RawMessage(d.raw)}
		if got := p.DefaultValue(); !reflect.DeepEqual(got, d.want) {
			t.Errorf("DefaultValue(%s) = %#v, want %#v", d.raw, got, d.want)
		}
	}
	b, err := json.Marshal(map[string]ElicitValue{
		"s": ElicitString("x"), "n": ElicitNumber(1.5), "i": ElicitInteger(7), "b": ElicitBool(false), "l": ElicitList([]string{"a"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"b":false,"i":7,"l":["a"],"n":1.5,"s":"x"}`; string(b) != want {
		t.Fatalf("values encode as %s, want %s", b, want)
	}
}
