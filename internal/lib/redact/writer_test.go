package redact

import (
	"errors"
	"strings"
	"testing"
)

// flush in a writerCase's writes calls Flush instead of Write.
const flush = "\x00flush"

func TestWriter(t *testing.T) {
	long := strings.Repeat("y", MaxHeldLine+10)
	capped := strings.Repeat("y", MaxHeldLine)
	huge := strings.Repeat("y", 2*MaxHeldLine+10)
	cases := []struct {
		name   string
		writes []string
		want   string
	}{
		{"clean lines pass through", []string{"a\nb\n", "c\n"}, "a\nb\nc\n"},
		{"secret in one write", []string{"OPENAI_API_KEY=" + projKey + " codex\n"}, "OPENAI_API_KEY=[REDACTED] codex\n"},
		{"key split across writes", []string{"x\nOPENAI_API_KEY=sk-proj-Abc123_def", "456-GHI789jkl012MNO345pqr678 codex\ny\n"}, "x\nOPENAI_API_KEY=[REDACTED] codex\ny\n"},
		{"password split across writes", []string{"login password=Tr0ub", "4dor&3xyz ok\n"}, "login password=[REDACTED] ok\n"},
		{"value split at the separator", []string{"password:", " correct horse", " battery staple\nnext\n"}, "password: [REDACTED]\nnext\n"},
		{"unfinished line written at Close", []string{"a\ntoken=abc12", "3"}, "a\ntoken=[REDACTED]"},
		{"pem split across writes", []string{"key:\n-----BEGIN RSA PRI", "VATE KEY-----\nMIIEowIBAAK", "CQEAvKkS0fSd8xq\n2v9Jc1k4ZpQ+4s0xyz/AbCdEf==\n-----END RSA ", "PRIVATE KEY-----\nafter\n"},
			"key:\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\nafter\n"},
		{"pem without end line", []string{"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\nBgkqhkiG9w0B", "AQEFAASC"}, "-----BEGIN PRIVATE KEY-----[REDACTED]"},
		{"pem then more text", []string{"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY----- tail\n-----BEGIN CERTIFICATE-----\nMIIC\n"},
			"-----BEGIN EC PRIVATE KEY-----[REDACTED]-----END EC PRIVATE KEY----- tail\n-----BEGIN CERTIFICATE-----\nMIIC\n"},
		{"long line without newline", []string{long[:MaxHeldLine], long[MaxHeldLine:]}, long},
		{"long line cut at a blank", []string{long + " token=abc1", "23 ok\n"}, long + " token=[REDACTED] ok\n"},
		{"long line cut with a flush", []string{"a b", flush, long, " c d\n"}, "a b" + long + " c d\n"},
		// A value is not cut at the cap: the line is cut at its last
		// blank before the cap, or, with none, held up to twice the cap.
		{"value straddling the cap, no blank", []string{`{"a":"` + capped + `","password":"abc`, `def"}` + "\n"}, `{"a":"` + capped + `","password":"[REDACTED]"}` + "\n"},
		{"value straddling the cap after a blank", []string{"a " + capped + " password: 'x y", " z' ok\n"}, "a " + capped + " password: '[REDACTED]' ok\n"},
		{"blank before the cap, value after it", []string{"a b " + long + "token=abc", "def\n"}, "a b " + long + "token=[REDACTED]\n"},
		{"no blank for twice the cap", []string{huge[:MaxHeldLine], huge[MaxHeldLine:], "z\n"}, huge + "z\n"},
		{"one write of many caps", []string{strings.Repeat("word ", 3*MaxHeldLine/5) + "password=abc", "def ok\n"}, strings.Repeat("word ", 3*MaxHeldLine/5) + "password=[REDACTED] ok\n"},
		{"flush writes the unfinished line", []string{"progress 50%", flush, " done\n"}, "progress 50% done\n"},
		{"flush then the secret's rest", []string{"password=abc", flush, "def rest\n"}, "password=[REDACTED] rest\n"},
		{"flush inside a key block", []string{"-----BEGIN PRIVATE KEY-----\nMIIE", flush, "vQIB\n-----END PRIVATE KEY-----\n"}, "-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\n"},
		{"flush twice", []string{"a b", flush, flush, " c", flush}, "a b c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			w := NewWriter(&out)
			for _, s := range tc.writes {
				if s == flush {
					if err := w.Flush(); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", s, n, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("wrote\n %q\nwant\n %q", trimMid(got), trimMid(tc.want))
			}
			if got := String(tc.want); got != tc.want {
				t.Errorf("String(want) changed it: %q", trimMid(got))
			}
		})
	}
}

// trimMid shortens a long string for a failure message.
func trimMid(s string) string {
	if len(s) <= 200 {
		return s
	}
	return s[:100] + "…" + s[len(s)-100:]
}

// Whatever the sizes of the writes, a Writer writes what String gives for
// the whole text when no secret spans lines.
func TestWriterMatchesString(t *testing.T) {
	texts := []string{
		"HOME=/root\nOPENAI_API_KEY=" + skKey + "\nPATH=/usr/bin\n",
		"db:\n  password: correct horse battery staple\n  url: postgres://app:hunter2@db/x?sslmode=disable&password=pw&x=1\n",
		"Here is the key:\n" + pemKey + "\nand " + ghToken + " after it.\n",
		`{"method":"item/completed","params":{"item":{"aggregatedOutput":"export TOKEN=abc\nAuthorization: Bearer abcdef123456\n"}}}` + "\nno newline at the end: Bearer 0123456789abcdef",
		"\x1b[31mpassword: a b\x1b[0m\r\nprogress 10%\rprogress 100%\r\n",
	}
	for _, text := range texts {
		want := String(text)
		for _, size := range []int{1, 2, 3, 7, 16, 64, len(text)} {
			var out strings.Builder
			w := NewWriter(&out)
			for i := 0; i < len(text); i += size {
				w.Write([]byte(text[i:min(len(text), i+size)]))
			}
			w.Close()
			if got := out.String(); got != want {
				t.Errorf("writes of %d bytes:\n got %q\nwant %q", size, got, want)
			}
		}
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

// The underlying writer's first error is returned by every later call.
func TestWriterError(t *testing.T) {
	w := NewWriter(&failWriter{n: 1})
	if _, err := w.Write([]byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write([]byte("b\n")); n != 0 || err == nil {
		t.Fatalf("Write after a failure = %d, %v", n, err)
	}
	if _, err := w.Write([]byte("c\n")); err == nil || err.Error() != "disk full" {
		t.Fatalf("later Write: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close hid the error")
	}
	if _, err := NewWriter(&strings.Builder{}).Write(nil); err != nil {
		t.Fatal(err)
	}
	c := NewWriter(&strings.Builder{})
	c.Close()
	if _, err := c.Write([]byte("x")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
}

// The writer benchmarks build their input inside the function: a large
// package-level buffer moves the other benchmarks' data on the heap and
// changes their timing (BenchmarkBytesDelta by about 25%).

// BenchmarkWriterClean is the cost per chunk of command output with
// nothing to redact (the spill file's usual case).
func BenchmarkWriterClean(b *testing.B) {
	chunk := []byte(strings.Repeat("building tandem/internal/lib/redact ok 0.004s\n", 200))
	w := NewWriter(discard{})
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		w.Write(chunk)
	}
}

// BenchmarkWriterSecrets is the cost per chunk of output full of secrets.
func BenchmarkWriterSecrets(b *testing.B) {
	chunk := []byte(strings.Repeat("HOME=/root\nOPENAI_API_KEY="+skKey+"\nPATH=/usr/bin\n", 50))
	w := NewWriter(discard{})
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		w.Write(chunk)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// FuzzWriter: no input makes a Writer panic, and where the writes split
// the text does not change what it writes.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{
		"a\npassword=abc&def\nb", pemKey + "\nx", "-----BEGIN PRIVATE KEY-----\nMIIE\n", "token: a b\r\nk=v\n",
	} {
		f.Add(s, uint(3))
	}
	f.Fuzz(func(t *testing.T, s string, at uint) {
		whole := func() string {
			var out strings.Builder
			w := NewWriter(&out)
			w.Write([]byte(s))
			w.Close()
			return out.String()
		}()
		cut := int(at % uint(len(s)+1))
		var out strings.Builder
		w := NewWriter(&out)
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Close()
		if out.String() != whole {
			t.Fatalf("split at %d: %q, whole: %q", cut, out.String(), whole)
		}
	})
}
