package mockapi_test

import (
	"reflect"
	"testing"

	"tandem/internal/testkit/mockapi"
)

// InputImages reads the input_image parts of user messages only.
func TestRequestInputImages(t *testing.T) {
	r := mockapi.Request{Raw: []byte(`{"input":[
		{"type":"message","role":"developer","content":[{"type":"input_image","image_url":"data:x"}]},
		{"type":"message","role":"user","content":[{"type":"input_text","text":"look"},
			{"type":"input_image","image_url":"data:image/png;base64,iVBO","detail":"high"},
			{"type":"input_image","image_url":"data:image/jpeg;base64,/9j/"}]},
		{"type":"function_call_output","call_id":"c","output":"x"}]}`)}
	want := []string{"data:image/png;base64,iVBO", "data:image/jpeg;base64,/9j/"}
	if got := r.InputImages(); !reflect.DeepEqual(got, want) {
		t.Errorf("InputImages = %q, want %q", got, want)
	}
	if got := r.UserTexts(); !reflect.DeepEqual(got, []string{"look"}) {
		t.Errorf("UserTexts = %q", got)
	}
}
