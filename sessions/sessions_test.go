package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestUnfinishedToolCalls(t *testing.T) {
	tests := []struct {
		file string
		want []PendingCall
	}{
		{"unfinished.jsonl", []PendingCall{
			{CallID: "call_open", Type: "function_call", Name: "exec_command"},
			{CallID: "call_patch", Type: "custom_tool_call", Name: "apply_patch"},
		}},
		{"finished.jsonl", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := UnfinishedToolCalls(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	if _, err := UnfinishedToolCalls(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Fatal("missing rollout: want an error")
	}
}

func TestStoreLastThreadAndHistory(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if got := s.LastThread("/w/a"); got != "" {
		t.Fatalf("empty store: last thread %q", got)
	}
	if err := s.SetLastThread("/w/a", "t1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLastThread("/w/b", "t2"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"one", "two", "two", "three"} {
		if err := s.AddHistory("/w/a", p); err != nil {
			t.Fatal(err)
		}
	}
	// A second store on the same file sees it all: it is persisted.
	s2 := Open(dir)
	if got := s2.LastThread("/w/a"); got != "t1" {
		t.Fatalf("last thread of /w/a = %q", got)
	}
	if got := s2.LastThread("/w/b"); got != "t2" {
		t.Fatalf("last thread of /w/b = %q", got)
	}
	if got, want := s2.History("/w/a"), []string{"one", "two", "three"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("history %q, want %q", got, want)
	}
	if got := s2.History("/w/b"); len(got) != 0 {
		t.Fatalf("history is per workspace, /w/b has %q", got)
	}
	st, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("state file mode %v is readable by others", st.Mode().Perm())
	}
}

func TestHistoryCapped(t *testing.T) {
	s := Open(t.TempDir())
	for i := range MaxHistory + 5 {
		if err := s.AddHistory("/w", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	h := s.History("/w")
	if len(h) != MaxHistory || h[0] != "5" || h[len(h)-1] != fmt.Sprint(MaxHistory+4) {
		t.Fatalf("len %d first %q last %q", len(h), h[0], h[len(h)-1])
	}
}

// BenchmarkUnfinishedToolCalls scans a 20,000-line rollout (about 6 MB),
// what a resume of a long thread costs before thread/resume is sent.
func BenchmarkUnfinishedToolCalls(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	pad := strings.Repeat("x", 200)
	for i := range 10000 {
		fmt.Fprintf(f, `{"timestamp":"2026-11-29T10:00:00.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"echo %s\"}","call_id":"c%d"}}`+"\n", pad, i)
		fmt.Fprintf(f, `{"timestamp":"2026-11-29T10:00:01.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c%d","output":"%s"}}`+"\n", i, pad)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		if pending, err := UnfinishedToolCalls(path); err != nil || len(pending) != 0 {
			b.Fatal(pending, err)
		}
	}
}

// ReadRecording refuses what it cannot read faithfully: not a recording,
// or one in a newer format.
func TestReadRecordingRefuses(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"not a header", `{"method":"x"}` + "\n", "not a tandem recording"},
		{"newer format", `{"type":"header","version":999,"tandem":"v9"}` + "\n", "format 999 by a newer tandem (v9)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRecording(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadRecording: %v; want %q", err, tc.want)
			}
		})
	}
	if _, err := ReadRecording(strings.NewReader(`{"type":"header","version":1}` + "\n")); err != nil {
		t.Errorf("format 1: %v", err)
	}
}
