package shellwords

import (
	"sync"
	"testing"
)

func TestDisplay(t *testing.T) {
	cases := []struct{ in, want string }{
		{`/bin/bash -lc 'echo hi > notes.txt'`, `echo hi > notes.txt`},
		{`bash -c "ls -la"`, `ls -la`},
		{`/usr/bin/zsh -lc 'sh greet.sh tandem | tee greeting.txt'`, `sh greet.sh tandem | tee greeting.txt`},
		{`/bin/bash -lc 'it'"'"'s'`, `it's`},
		{`ls -la`, `ls -la`},
		{`/bin/bash -lc "echo $HOME"`, `/bin/bash -lc "echo $HOME"`},
		{`/bin/bash -lc "printf 'first line\\n' && echo \"hi\""`, `printf 'first line\n' && echo "hi"`},
		{`/bin/bash -lc "ls *.go"`, `ls *.go`},
		{`/bin/bash -lc 'a\b'`, `a\b`},
		{`/bin/bash -lc 'a' extra`, `/bin/bash -lc 'a' extra`},
		{`python -c 'print(1)'`, `python -c 'print(1)'`},
		{`/bin/bash -lc 'unterminated`, `/bin/bash -lc 'unterminated`},
		{`FOO=1 bash -lc 'x'`, `FOO=1 bash -lc 'x'`},
		{`bash -lc 'x' > out`, `bash -lc 'x' > out`},
		{``, ``},
	}
	for _, tc := range cases {
		if got := Display(tc.in); got != tc.want {
			t.Errorf("Display(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"sh", "greet.sh", "tandem"}, `sh greet.sh tandem`},
		{[]string{"git", "commit", "-m", "two words"}, `git commit -m 'two words'`},
		{[]string{"/bin/bash", "-lc", "npm test"}, `npm test`},
		{[]string{"echo", "it's"}, `echo "it's"`},
		{[]string{"printf", "a\x00b"}, `printf "a\x00b"`},
		{nil, ``},
	}
	for _, tc := range cases {
		if got := Join(tc.in); got != tc.want {
			t.Errorf("Join(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// Display is called from many programs at once (each client of tandem
// serve draws its own transcript); run with -race.
func TestDisplayConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if got := Display(`/bin/bash -lc 'echo hi > out.txt'`); got != "echo hi > out.txt" {
					t.Errorf("Display = %q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
