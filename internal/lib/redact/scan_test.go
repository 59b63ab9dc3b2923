package redact

import "testing"

// TestScan: each word gives its hint where it starts anywhere in the
// text, a fold word in any case and another only as written.
func TestScan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"plain prose, nothing to hide", 0},
		{"the api KEY", hintKey},
		{"Token", hintKey},
		{"a SeCrEt", hintKey},
		{"PASSWORD=x", hintKey},
		{"pwd", hintKey},
		{"Credentials", hintKey},
		{"AUTHORIZATION: x", hintAuth},
		{"Bearer x", hintBearer},
		{"SK-abc", hintPrefix},
		{"AKIA1234", hintPrefix},
		{"akia1234", 0},
		{"ASIA", hintPrefix},
		{"sk_live_x", hintToken},
		{"SK_live_x", 0},
		{"rk_test_x", hintToken},
		{"AIzaSy", hintToken},
		{"aiza", 0},
		{"ghp_x", hintToken},
		{"GHP_x", 0},
		{"github_pat_x", hintToken},
		{"xoxb-1", hintToken},
		{"eyJhbGci", hintToken},
		{"EYJ", 0},
		{"https://u:p@h", hintURL},
		{"-----BEGIN RSA PRIVATE KEY-----", hintPEM | hintKey},
		{"x-----BEGIN", 0}, // no space after BEGIN
		{"Bearer eyJ, a key at https://h", hintBearer | hintToken | hintKey | hintURL},
		{"s", 0}, {"k", 0}, {"g", 0}, // a word's first byte at the very end
	} {
		if got := scan(tc.in); got != tc.want {
			t.Errorf("scan(%q) = %07b, want %07b", tc.in, got, tc.want)
		}
	}
}
