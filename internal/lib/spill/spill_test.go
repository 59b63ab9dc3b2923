package spill

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"tandem/internal/lib/procfs"
)

const projKey = "sk-proj-Abc123_def456-GHI789jkl012MNO345pqr678"

// A spill file is named after this process, private, and holds the text
// written to it redacted, secrets cut between writes included.
func TestCreateRedacts(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	f, err := Create()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Remove()
	if got, want := filepath.Dir(f.Name()), dir; got != want {
		t.Errorf("spill file in %s, want %s", got, want)
	}
	if pid, ok := ownerPID(filepath.Base(f.Name())); !ok || pid != os.Getpid() {
		t.Errorf("name %s: pid %d, %v", f.Name(), pid, ok)
	}
	if fi, err := os.Stat(f.Name()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	for _, s := range []string{"start\nOPENAI_API_KEY=" + projKey[:20], projKey[20:] + " codex\nlogin password=Tr0ub", "4dor&3xyz ok\nend"} {
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.Name())
	want := "start\nOPENAI_API_KEY=[REDACTED] codex\nlogin password=[REDACTED] ok\nend"
	if string(b) != want {
		t.Errorf("file holds %q, want %q", b, want)
	}
	p := f.Name()
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("not removed: %v", err)
	}
}

func TestSave(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	p, err := Save([]byte("a\ntoken=abc123\n-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\nz"))
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(p)
	b, _ := os.ReadFile(p)
	if want := "a\ntoken=[REDACTED]\n-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\nz"; string(b) != want {
		t.Errorf("saved %q, want %q", b, want)
	}
}

// A spill file holds the text as the transcript shows a command's output
// (escape sequences and controls visible, colours dropped), and then
// redacted: no byte of it drives a terminal, and no secret leaks, also
// where an escape sequence touches it or a colour cuts its key in two.
func TestSaveShowsControlsAndRedacts(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	tests := []struct{ name, in, want, secret string }{
		{"osc 52 and title", "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;x\x07ok\n", "␛]52;c;cm0gLXJmIH4=␇␛]0;x␇ok\n", ""},
		{"bracketed paste end", "\x1b[201~touch x\r\n", "␛[201~touch x\n", ""},
		{"c1, nul, lone cr, rlo, zero width", "\u009b2J\x00a\rb\u202ec\u200bd", "<U+009B>2J␀a␍b<U+202E>c<U+200B>d", ""},
		{"key after a title", "\x1b]0;x\x07password=hunter2hunter2\n", "␛]0;x␇password=[REDACTED]\n", "hunter2"},
		{"key cut by a colour", "pass\x1b[1mword=hunter2hunter2\n", "password=[REDACTED]\n", "hunter2"},
		{"key in colour", "\x1b[31mOPENAI_API_KEY=" + projKey + "\x1b[0m rest\n", "OPENAI_API_KEY=[REDACTED] rest\n", projKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Save([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			defer os.Remove(p)
			b, _ := os.ReadFile(p)
			if string(b) != tt.want {
				t.Errorf("saved %q, want %q", b, tt.want)
			}
			if tt.secret != "" && strings.Contains(string(b), tt.secret) {
				t.Errorf("saved %q leaks %q", b, tt.secret)
			}
			for i, c := range string(b) {
				if c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f || c == utf8.RuneError && !utf8.ValidString(string(b)) {
					t.Errorf("saved %q: a raw control at %d", b, i)
				}
			}
		})
	}
}

func TestOwnerPID(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{"tandem-output-1234-5678.log", 1234, true},
		{"tandem-output-1-x.log", 1, true},
		{"tandem-output-5678.log", 0, false}, // an older name without a pid
		{"tandem-output-1234-.log", 0, false},
		{"tandem-output--5678.log", 0, false},
		{"tandem-output-0-1.log", 0, false},
		{"tandem-output-12a-1.log", 0, false},
		{"tandem-output-99999999999-1.log", 0, false},
		{"tandem-output-1234-5678.txt", 0, false},
		{"other-1234-5678.log", 0, false},
	} {
		pid, ok := ownerPID(tc.name)
		if pid != tc.pid && ok || ok != tc.ok {
			t.Errorf("ownerPID(%q) = %d, %v; want %d, %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
}

// RemoveStale deletes the spill and draft files of a process that is gone
// and keeps those of live processes (this one included) and files of
// other names.
func TestRemoveStale(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no kill(pid, 0)")
	}
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Skip("no /bin/true:", err)
	}
	dead := cmd.Process.Pid // waited for: no such process any more
	if !procfs.Gone(dead) {
		t.Skipf("pid %d was reused already", dead)
	}
	dir := t.TempDir()
	names := map[string]bool{ // name → kept
		fmt.Sprintf("tandem-output-%d-111.log", dead):         false,
		fmt.Sprintf("tandem-output-%d-222.log", dead):         false,
		fmt.Sprintf("tandem-output-%d-333.log", os.Getpid()):  true,
		fmt.Sprintf("tandem-output-%d-444.log", os.Getppid()): true,
		"tandem-output-555.log":                               true, // no pid in the name
		fmt.Sprintf("notes-%d-666.log", dead):                 true,
		fmt.Sprintf("tandem-prompt-%d-888.md", dead):          false, // a draft
		fmt.Sprintf("tandem-prompt-%d-999.md", os.Getpid()):   true,
		fmt.Sprintf("tandem-prompt-%d-000.log", dead):         true, // not a draft's suffix
	}
	for n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A directory with a spill file's name is not a spill file.
	if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("tandem-output-%d-777.log", dead)), 0o700); err != nil {
		t.Fatal(err)
	}
	if n := RemoveStale(dir); n != 3 {
		t.Errorf("removed %d files, want 3", n)
	}
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if kept != (err == nil) {
			t.Errorf("%s: kept %v, want %v", n, err == nil, kept)
		}
	}
	if n := RemoveStale(filepath.Join(dir, "missing")); n != 0 {
		t.Errorf("missing dir: removed %d", n)
	}
}
