package spill

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

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
