package redact

import (
	"reflect"
	"strings"
	"testing"
)

// FindRandom reports long runs of key characters that mix upper case,
// lower case and digits, and leaves hashes, UUIDs and words alone.
func TestFindRandom(t *testing.T) {
	const tail = "Ab1cDe2fGh3iJk4lMn5oPq6rSt7uVw8x" // 32 bytes
	cases := []struct {
		name string
		in   string
		want [][2]int
	}{
		{"run of RandomMin", tail, [][2]int{{0, 32}}},
		{"one short", tail[1:], nil},
		{"key tail without its prefix", "  " + tail + "_-Zz9 next", [][2]int{{2, 39}}},
		{"a whole key", "key " + projKey + ".", [][2]int{{4, 4 + len(projKey)}}},
		{"two runs", tail + "/" + tail, [][2]int{{0, 32}, {33, 65}}},
		{"base64 padding and + split runs", "QUJD" + tail + "+/=", [][2]int{{0, 36}}},
		// Must not be reported.
		{"git sha", "commit 3f786850e387550fdab836ed7e6dc881de23001b", nil},
		{"sha256", "sha256:" + strings.Repeat("9f86d081884c7d65", 4), nil},
		{"uuid", "thread 0199a213-81c0-7800-8aa1-bbab2a035a53", nil},
		{"upper-case uuid", "0199A213-81C0-7800-8AA1-BBAB2A035A53", nil},
		{"long word", "internationalization_and_localization_frameworks", nil},
		{"camel case without digits", "TestSnapshotMasksSecretsWhenScrolledAway", nil},
		{"constant with digits", "MAX_CONCURRENT_CONNECTIONS_PER_HOST_V2", nil},
		{"short mixed", "Ab1cDe2f", nil},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := FindRandom(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FindRandom(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
	// The general redactor leaves such runs alone.
	if got := String(tail); got != tail {
		t.Errorf("String(%q) = %q", tail, got)
	}
}
