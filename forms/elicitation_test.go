package forms

import "testing"

func TestElicitFieldValidation(t *testing.T) {
	one, three := 1, 3
	lo, hi := 0.0, 10.0
	cases := []struct {
		f    ElicitField
		in   string
		okay bool
	}{
		{ElicitField{Kind: FieldString, Required: true}, "", false},
		{ElicitField{Kind: FieldString}, "", true},
		{ElicitField{Kind: FieldString, MinLength: &one, MaxLength: &three}, "abcd", false},
		{ElicitField{Kind: FieldString, MinLength: &one, MaxLength: &three}, "abc", true},
		{ElicitField{Kind: FieldString, Format: "email"}, "a@b.c", true},
		{ElicitField{Kind: FieldString, Format: "email"}, "nope", false},
		{ElicitField{Kind: FieldString, Format: "uri"}, "https://x.y/z", true},
		{ElicitField{Kind: FieldString, Format: "uri"}, "x.y", false},
		{ElicitField{Kind: FieldString, Format: "date"}, "2026-11-29", true},
		{ElicitField{Kind: FieldString, Format: "date"}, "29.11.2026", false},
		{ElicitField{Kind: FieldString, Format: "date-time"}, "2026-11-29T10:00:00Z", true},
		{ElicitField{Kind: FieldString, Format: "date-time"}, "2026-11-29", false},
		{ElicitField{Kind: FieldInteger}, "12", true},
		{ElicitField{Kind: FieldInteger}, "1.5", false},
		{ElicitField{Kind: FieldInteger, Minimum: &lo, Maximum: &hi}, "11", false},
		{ElicitField{Kind: FieldNumber, Minimum: &lo, Maximum: &hi}, "9.5", true},
		{ElicitField{Kind: FieldNumber, Minimum: &lo}, "-0.1", false},
		{ElicitField{Kind: FieldNumber}, "abc", false},
		{ElicitField{Kind: FieldNumber, Required: true}, " ", false},
	}
	for _, c := range cases {
		err := checkText(c.f, c.in)
		if (err == nil) != c.okay {
			t.Errorf("%+v %q: err=%v, want ok=%v", c.f, c.in, err, c.okay)
		}
	}
	items := []struct {
		f    ElicitField
		in   []string
		okay bool
	}{
		{ElicitField{Kind: FieldMultiEnum, Required: true}, nil, false},
		{ElicitField{Kind: FieldMultiEnum}, nil, true},
		{ElicitField{Kind: FieldMultiEnum, MaxItems: &one}, []string{"a", "b"}, false},
		{ElicitField{Kind: FieldMultiEnum, MinItems: &three}, []string{"a"}, false},
	}
	for _, c := range items {
		if err := checkItems(c.f, c.in); (err == nil) != c.okay {
			t.Errorf("%+v %q: err=%v, want ok=%v", c.f, c.in, err, c.okay)
		}
	}
}
