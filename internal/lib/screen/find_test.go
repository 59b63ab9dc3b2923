package screen

import (
	"reflect"
	"testing"

	"tandem/internal/lib/redact"
)

// redact.Find reports exactly what redact.String hides: the screen masks
// those cells in place.
func TestFindMatchesString(t *testing.T) {
	for _, s := range []string{
		"nothing to hide here, 12k tokens left",
		"OPENAI_API_KEY=" + typedKey,
		"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 && make",
		"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln and more",
		"two: " + typedKey + " AKIAIOSFODNN7EXAMPLE end",
		"clone https://user:hunter2@example.com/repo.git",
		"--api-key abc123def --verbose",
		"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabcd\n-----END PRIVATE KEY-----\n",
		"xoxb-1234567890-abcdefghij and AIzaSyA1234567890abcdefghijklmnopqrstuv",
	} {
		rs := redact.Find(s)
		if got, want := maskRanges(s, rs), redact.String(s); got != want {
			t.Errorf("Find(%q) = %v\nmasks to %q\nString    %q", s, rs, got, want)
		}
		for i := 1; i < len(rs); i++ {
			if rs[i][0] <= rs[i-1][1] {
				t.Errorf("Find(%q) = %v: ranges overlap or touch", s, rs)
			}
		}
	}
	if rs := redact.Find("plain words"); rs != nil {
		t.Errorf("Find(plain) = %v", rs)
	}
}

// redact.FindPartial reports a key still being typed once a few random
// looking characters follow its prefix, and leaves words alone.
func TestFindPartial(t *testing.T) {
	cases := []struct {
		in   string
		want [][2]int
	}{
		{"sk-proj-Ab1", [][2]int{{0, 11}}},
		{"key: sk-proj-Ab1 next", [][2]int{{5, 16}}},
		{"SK-PROJ-AB1", [][2]int{{0, 11}}},
		{"sk-proj-Ab", nil},
		{"sk-proj-", nil},
		{"pip install sk-learn", nil},
		{"sk-learn and sk-abc1", [][2]int{{13, 20}}},
		{"task-proj-Ab1", nil},
		{"ghp_Ab3", [][2]int{{0, 7}}},
		{"ghp_list", nil},
		{"github_pat_11A", [][2]int{{0, 14}}},
		{"xoxb-12", nil},
		{"xoxb-123", [][2]int{{0, 8}}},
		{"AKIAIOS", [][2]int{{0, 7}}},
		{"ASIAN", nil},
		{"AKIAabc", nil},
		{"AIzaSyB", [][2]int{{0, 7}}},
		{"eyJhbG", [][2]int{{0, 6}}},
		{"eyJhb", nil},
		{"sk_live_ab1", [][2]int{{0, 11}}},
		{"rk_test_a-b", [][2]int{{0, 11}}},
		{"Bearer Ab1x", [][2]int{{7, 11}}},
		{"Bearer token", nil},
		{"(sk-proj-Ab1)", [][2]int{{1, 12}}},
	}
	for _, tc := range cases {
		if got := redact.FindPartial(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindPartial(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestMaskString(t *testing.T) {
	for in, want := range map[string]string{
		"tandem":                     "tandem",
		"tandem — sk-proj-Ab1":       "tandem — " + redact.Marker,
		"key=" + typedKey + " there": "key=" + redact.Marker + " there",
	} {
		if got := MaskString(in); got != want {
			t.Errorf("MaskString(%q) = %q, want %q", in, got, want)
		}
	}
}
