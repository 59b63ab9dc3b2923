package find

import (
	"strings"
	"testing"
)

func TestSpans(t *testing.T) {
	tests := []struct {
		name, term, text string
		want             []Span
	}{
		{"ascii ignoring case", "err", "Error: an err, ERR", []Span{{0, 3}, {10, 13}, {15, 18}}},
		{"upper-case term matches case", "Err", "Error err Err", []Span{{0, 3}, {10, 13}}},
		{"cjk", "検索", "全文検索と検索", []Span{{6, 12}, {15, 21}}},
		{"emoji", "🚀x", "a🚀x 🚀X", []Span{{1, 6}, {7, 12}}},
		{"greek folds", "σοφία", "ΣΟΦΊΑ", []Span{{0, 10}}},
		{"no overlap", "aa", "aaaa", []Span{{0, 2}, {2, 4}}},
		{"none", "zz", "abc", nil},
		{"empty term", "", "abc", nil},
		{"longer rune in text keeps offsets", "k", "\u212a k", []Span{{0, 3}, {4, 5}}}, // Kelvin sign folds to k
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := New(tc.term).Spans(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("Spans(%q) in %q = %v, want %v", tc.term, tc.text, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("Spans(%q) in %q = %v, want %v", tc.term, tc.text, got, tc.want)
				}
			}
		})
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		term, text string
		want       int
	}{
		{"error", "Error error ERROR", 3},
		{"Error", "Error error ERROR", 1},
		{"検索", "検索検索", 2},
		{"😀", "😀 😀😀", 3},
		{"", "abc", 0},
	}
	for _, tc := range tests {
		q := New(tc.term)
		text := tc.text
		if q.Folds() {
			text = Fold(text)
		}
		if got := q.Count(text); got != tc.want {
			t.Errorf("Count(%q) in %q = %d, want %d", tc.term, tc.text, got, tc.want)
		}
		if got := len(q.Spans(tc.text)); got != tc.want {
			t.Errorf("len(Spans(%q)) in %q = %d, want %d (Count and Spans agree)", tc.term, tc.text, got, tc.want)
		}
	}
}

func TestPlainAndMark(t *testing.T) {
	line := "\x1b[1mbold ERROR\x1b[0m and \x1b]8;;http://x\x07link\x1b]8;;\x07 error"
	plain := Plain(line)
	if plain != "bold ERROR and link error" {
		t.Fatalf("Plain = %q", plain)
	}
	q := New("error")
	spans := q.Spans(plain)
	if len(spans) != 2 {
		t.Fatalf("spans = %v", spans)
	}
	got := Mark(line, spans, 1)
	if Plain(got) != plain {
		t.Fatalf("Mark changed the text: %q", Plain(got))
	}
	want := "\x1b[1mbold " + markOn + "ERROR" + markOff + "\x1b[0m and \x1b]8;;http://x\x07link\x1b]8;;\x07 " + markCurOn + "error" + markOff
	if got != want {
		t.Fatalf("Mark =\n%q\nwant\n%q", got, want)
	}
	// a reset inside a match marks again after it
	if got := Mark("x\x1b[0my", []Span{{0, 2}}, -1); got != markOn+"x\x1b[0m"+markOn+"y"+markOff {
		t.Fatalf("Mark across a reset = %q", got)
	}
	if Mark(line, nil, 0) != line {
		t.Fatal("Mark with no spans changed the line")
	}
}

func TestUTF16(t *testing.T) {
	s := "a😀b検c"
	tests := []struct{ start, end, bs, be int }{
		{0, 1, 0, 1},   // a
		{1, 3, 1, 5},   // 😀 (a surrogate pair)
		{3, 4, 5, 6},   // b
		{4, 5, 6, 9},   // 検
		{2, 3, 1, 5},   // half a pair: the whole rune
		{5, 99, 9, 10}, // clamped
	}
	for _, tc := range tests {
		bs, be := UTF16(s, tc.start, tc.end)
		if bs != tc.bs || be != tc.be {
			t.Errorf("UTF16(%d, %d) = %d, %d (%q), want %d, %d", tc.start, tc.end, bs, be, s[bs:be], tc.bs, tc.be)
		}
	}
}

// BenchmarkCount2MB is a keystroke's matching on a 2 MB answer, folded
// once (as the transcript keeps it).
func BenchmarkCount2MB(b *testing.B) {
	text := Fold(strings.Repeat("The quick brown fox jumps over the lazy dog. Ünïcödé 検索 🚀\n", 2<<20/64))
	q := New("lazy dox")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		q.Count(text)
	}
}
