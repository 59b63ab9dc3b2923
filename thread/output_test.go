package thread

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fake secrets (none is a live credential).
const (
	spillKey = "sk-proj-Abc123_def456-GHI789jkl012MNO345pqr678"
	spillGH  = "ghp_aB3daB3daB3daB3daB3daB3daB3daB3daB3d"
)

// readSpill reads a file the cell wrote and checks its name and mode.
func readSpill(t *testing.T, path string) string {
	t.Helper()
	if want := fmt.Sprintf("tandem-output-%d-", os.Getpid()); !strings.HasPrefix(filepath.Base(path), want) {
		t.Errorf("file %s not named %s*.log", path, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", fi.Mode())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The spill file of a big command's output holds it redacted, secrets cut
// between two chunks included, and all the text around them; what stays
// in memory is as before (its text is redacted at the source).
func TestOutputSpillRedacted(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	c := &Output{}
	defer c.Close()
	filler := strings.Repeat("filler line\n", 16<<10)
	c.Append("before\nOPENAI_API_KEY=" + spillKey + " codex\n")
	for c.Bytes() <= OutputMemCap {
		c.Append(filler)
	}
	if c.SpillPath() == "" {
		t.Fatal("no spill file")
	}
	for _, chunk := range []string{
		"login password=Tr0ub", "4dor&3xyz ok\n",
		"export OPENAI_API_KEY=" + spillKey[:18], spillKey[18:] + " after\n",
		"last line " + spillGH[:10], spillGH[10:],
	} {
		c.Append(chunk)
	}
	if got := c.Tail(1); len(got) != 1 || got[0] != "last line "+spillGH {
		t.Errorf("tail in memory %q", got)
	}
	if got := c.Head(2); len(got) != 2 || got[1] != "OPENAI_API_KEY="+spillKey+" codex" {
		t.Errorf("head in memory %q", got)
	}
	path, temp, err := c.FullPath()
	if err != nil || temp || path != c.SpillPath() {
		t.Fatalf("FullPath = %q, %v, %v; want the spill file %q", path, temp, err, c.SpillPath())
	}
	got := readSpill(t, path)
	for _, leak := range []string{spillKey, spillKey[:18], spillKey[18:], "Tr0ub", "4dor", "3xyz", spillGH[:10], spillGH[10:]} {
		if strings.Contains(got, leak) {
			t.Errorf("spill file leaks %q", leak)
		}
	}
	for _, keep := range []string{
		"before\nOPENAI_API_KEY=[REDACTED] codex\nfiller line\n",
		"filler line\nlogin password=[REDACTED] ok\nexport OPENAI_API_KEY=[REDACTED] after\n",
	} {
		if !strings.Contains(got, keep) {
			t.Errorf("spill file lacks %q", keep)
		}
	}
	if !strings.HasSuffix(got, "\nlast line [REDACTED]") {
		t.Errorf("spill file ends %q", got[max(0, len(got)-40):])
	}
	if n := strings.Count(got, "filler line\n"); int64(n*len("filler line\n")) < OutputMemCap {
		t.Errorf("spill file holds %d filler lines", n)
	}
	c.Append(" more\n")
	if got := readSpill(t, path); !strings.HasSuffix(got, "\nlast line [REDACTED] more\n") {
		t.Errorf("after a flush the line goes on %q", got[max(0, len(got)-40):])
	}
}

// The temp file FullPath writes for output kept in memory is a spill
// file too: named after this process, private and redacted.
func TestOutputFullPathRedacted(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	c := &Output{}
	c.Append("$ env\nHOME=/root\nOPENAI_API_KEY=" + spillKey[:25])
	c.Append(spillKey[25:] + "\npassword: correct horse battery staple\nPATH=/usr/bin\ndone")
	path, temp, err := c.FullPath()
	if err != nil || !temp {
		t.Fatalf("FullPath = %q, %v, %v", path, temp, err)
	}
	defer os.Remove(path)
	want := "$ env\nHOME=/root\nOPENAI_API_KEY=[REDACTED]\npassword: [REDACTED]\nPATH=/usr/bin\ndone"
	if got := readSpill(t, path); got != want {
		t.Errorf("file holds\n%q\nwant\n%q", got, want)
	}
	if c.SpillPath() != "" {
		t.Errorf("small output spilled to %s", c.SpillPath())
	}
}

func TestOutputBoundedAndSpilled(t *testing.T) {
	c := &Output{}
	chunk := strings.Repeat("x\n", 4096) // 8 KiB
	const total = 10_000_000
	for n := 0; n < total; n += len(chunk) {
		c.Append(chunk)
	}
	defer c.Close()
	if c.MemBytes() > 4<<20 {
		t.Fatalf("holds %d bytes in memory", c.MemBytes())
	}
	if c.SpillPath() == "" {
		t.Fatal("no spill file")
	}
	fi, err := os.Stat(c.SpillPath())
	if err != nil || fi.Size() != c.Bytes() {
		t.Fatalf("spill file %v size %v, want %d", err, fi, c.Bytes())
	}
	if c.Lines() != c.Bytes()/2 {
		t.Fatalf("lines %d", c.Lines())
	}
	p := c.SpillPath()
	c.Close()
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("spill file not removed: %v", err)
	}
}

// The file FullPath gives $PAGER holds the output as the transcript
// shows it, whether it was kept in memory or spilled, and however the
// chunks cut it: an escape sequence is its visible marker (colours
// dropped), a lone "\r" is ␍, C0 and C1 controls, bidi controls and
// invisible characters are visible; "\n" and tabs stay. So `less -R`,
// `cat` or `bat` can't set the title, write the clipboard (OSC 52),
// clear the screen or reorder a line, and what is redacted stays so.
func TestOutputFullPathIsWhatTheScreenShows(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"title and clipboard write",
			"start\x1b]0;PWNTITLE\x07 \x1b]52;c;cm0gLXJmIH4=\x07 mid\n",
			"start␛]0;PWNTITLE␇ ␛]52;c;cm0gLXJmIH4=␇ mid\n"},
		{"clear screen, colour dropped", "\x1b[2J\x1b[31mred\x1b[0m\n", "␛[2Jred\n"},
		{"bracketed paste end", "\x1b[201~touch /tmp/PWNED\n", "␛[201~touch /tmp/PWNED\n"},
		{"dcs", "\x1bP1$qm\x1b\\after\n", "␛P1$qm␛\\after\n"},
		{"c1 csi", "a\u009b2Jb\n", "a<U+009B>2Jb\n"},
		{"raw c1 byte", "a\x9bb\n", "a\ufffdb\n"},
		{"lone cr", "mid\rOVER\n", "mid␍OVER\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"nul bel del, tab kept", "a\x00b\x07c\x7fd\te\n", "a␀b␇c␡d\te\n"},
		{"bidi override", "\u202ebidi\n", "<U+202E>bidi\n"},
		{"zero width", "rm\u200b -rf\n", "rm<U+200B> -rf\n"},
		{"secret next to an escape", "\x1b[1mOPENAI_API_KEY=" + spillKey + "\x1b[0m ok\n", "OPENAI_API_KEY=[REDACTED] ok\n"},
	}
	for _, tt := range tests {
		for _, spilled := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s spilled=%v", tt.name, spilled), func(t *testing.T) {
				t.Setenv("TMPDIR", t.TempDir())
				c := &Output{}
				defer c.Close()
				filler := strings.Repeat("filler line\n", 16<<10)
				if spilled {
					for c.Bytes() <= OutputMemCap {
						c.Append(filler)
					}
				}
				// the hostile text a byte at a time: every cut
				for i := 0; i < len(tt.in); i++ {
					c.Append(tt.in[i : i+1])
				}
				path, temp, err := c.FullPath()
				if err != nil {
					t.Fatal(err)
				}
				if temp {
					defer os.Remove(path)
				}
				got := strings.ReplaceAll(readSpill(t, path), filler, "")
				if got != tt.want {
					t.Errorf("file holds %q, want %q", got, tt.want)
				}
				if i := strings.IndexFunc(got, unsafeOnTerminal); i >= 0 || !utf8.ValidString(got) {
					t.Errorf("%q keeps a raw control (at %d) or invalid UTF-8", got, i)
				}
			})
		}
	}
}

// unsafeOnTerminal reports a rune that must not reach a pager: a C0
// control but "\n" and tab, DEL, a C1 control, a bidi control, a zero
// width space.
func unsafeOnTerminal(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200b
}
