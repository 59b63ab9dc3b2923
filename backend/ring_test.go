package backend

import (
	"reflect"
	"testing"
)

func TestRingTail(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		lines  int
		bytes  int
		want   []string
	}{
		{"lines split across writes", []string{"ab", "c\nde", "f\n"}, 10, 100, []string{"abc", "def"}},
		{"CRLF ends drop the CR", []string{"ssh: Could not resolve\r\n", "x\r\r\n"}, 10, 100, []string{"ssh: Could not resolve", "x\r"}},
		{"unterminated last line kept", []string{"one\ntwo"}, 10, 100, []string{"one", "two"}},
		{"bounded by lines", []string{"1\n2\n3\n4\n"}, 2, 100, []string{"3", "4"}},
		{"bounded by bytes", []string{"aaaa\nbbbb\ncccc\n"}, 10, 8, []string{"bbbb", "cccc"}},
		{"a long line keeps its tail", []string{"0123456789\n"}, 10, 4, []string{"6789"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRing(tc.lines, tc.bytes)
			for _, w := range tc.writes {
				if n, err := r.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := r.Tail(10); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Tail = %q; want %q", got, tc.want)
			}
		})
	}
}
