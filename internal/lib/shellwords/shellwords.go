// Package shellwords shows command lines the way a reader wants them:
// the script of a `bash -lc` wrapper, and argv words quoted only where a
// shell needs it. It parses and quotes with mvdan.cc/sh.
package shellwords

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Display is how a command line is shown: codex runs the agent's
// commands as `/bin/bash -lc 'SCRIPT'` (also sh or zsh, -c or -lc), and a
// reader wants SCRIPT, as in Codex's own TUI. Anything else, including a
// wrapper whose script needs expansion to be read ("$HOME"), is returned
// unchanged.
func Display(cmd string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return cmd
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) != 3 {
		return cmd
	}
	words := make([]string, 3)
	for i, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			return cmd
		}
		words[i] = s
	}
	switch path.Base(words[0]) {
	case "bash", "sh", "zsh":
	default:
		return cmd
	}
	if words[1] != "-lc" && words[1] != "-c" {
		return cmd
	}
	return words[2]
}

// literal is the value of a word made only of literals and quotes, with
// the quoting removed (expand.Literal, with no environment); ok is false
// when reading it needs expansion ($VAR, $(…), globs stay unexpanded).
func literal(w *syntax.Word) (string, bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	// A fresh Config each time: with nil, expand uses one shared config
	// and writes to it, which races when several programs draw at once
	// (tandem serve).
	s, err := expand.Literal(&expand.Config{}, w)
	return s, err == nil
}

// Join shows an argv (a command prefix such as an execpolicy
// amendment) as one line a shell would read back the same: words that
// need it are quoted. A `bash -lc SCRIPT` argv shows SCRIPT.
func Join(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		switch path.Base(argv[0]) {
		case "bash", "sh", "zsh":
			return argv[2]
		}
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil { // a NUL byte or invalid UTF-8: show it as Go would
			q = strconv.Quote(a)
		}
		words[i] = q
	}
	return strings.Join(words, " ")
}
