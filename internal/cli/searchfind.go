package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/model/act"
	"tandem/sessions"
)

// How a search across threads is made (`tandem search`, /search): on
// this machine, the rollouts in CODEX_HOME are read (every event a
// thread shows: prompts, answers, commands and their output, tool calls,
// with the turn of the match); elsewhere (--ssh, --remote) the server's
// thread/search, which finds prompts and answers only, with no turn
// (docs/SEARCH.md, "Across threads").

// searchPlace is where a run's search reads: root, the rollouts' folder
// on this machine ("" for the server's thread/search), and cwd, the
// workspace a search without --all keeps ("" none known: every one).
type searchPlace struct {
	root string
	cwd  string
}

// searchPlaceOf is where cfg's run searches: the rollouts of its shared
// CODEX_HOME for a codex (or daemon) on this machine, unless server
// (--server) asks for thread/search; the server's otherwise.
func searchPlaceOf(cfg runConfig, cwd string, server bool) searchPlace {
	p := searchPlace{cwd: cfg.threadCwd(cwd)}
	if !server && !cfg.isRemote() && !cfg.attach {
		p.root = filepath.Join(codexHomeOf(cfg.settings.Environ(os.Environ())), "sessions")
	}
	return p
}

// finder is the act.ThreadFinder of p.
func (p searchPlace) finder() act.ThreadFinder {
	return func(ctx context.Context, c backend.Client, query string, all bool) ([]act.ThreadMatch, error) {
		cwd := p.cwd
		if all {
			cwd = ""
		}
		if p.root != "" {
			m, err := findInRollouts(ctx, p.root, query, cwd)
			if err == nil && c != nil {
				nameFromServer(ctx, c, m)
			}
			return m, err
		}
		s, ok := c.(backend.ThreadSearcher)
		if !ok {
			return nil, act.ErrNoThreadSearch
		}
		return findOnServer(ctx, s, query, cwd)
	}
}

// findInRollouts searches the rollouts under root (sessions.SearchRollouts);
// cwd "" is every workspace. A thread's name is read from CODEX_HOME's
// session_index.jsonl when it has one.
func findInRollouts(ctx context.Context, root, query, cwd string) ([]act.ThreadMatch, error) {
	hits, err := sessions.SearchRollouts(ctx, root, sessions.SearchOptions{Query: query, Cwd: cwd})
	if err != nil {
		return nil, err
	}
	names := threadNames(filepath.Join(filepath.Dir(root), "session_index.jsonl"))
	out := make([]act.ThreadMatch, len(hits))
	for i, h := range hits {
		path := h.Path
		th := backend.Thread{ID: h.ThreadID, Preview: h.Preview, Cwd: h.Cwd, UpdatedAt: h.Updated.Unix(), Path: &path}
		if !h.Created.IsZero() {
			th.CreatedAt = h.Created.Unix()
		}
		if n, ok := names[h.ThreadID]; ok && n != "" {
			th.Name = &n
		}
		out[i] = act.ThreadMatch{Thread: th, Turn: h.Turn, TurnID: h.TurnID, Kind: h.Kind, Snippet: h.Snippet, Match: h.Match}
	}
	return out, nil
}

// maxNamed bounds the threads whose names are asked of the server
// (thread/read) after a search of the rollouts.
const maxNamed = 30

// nameFromServer names the first matches' threads as the server knows
// them (thread/read), where the rollouts did not: best effort.
func nameFromServer(ctx context.Context, c backend.Client, m []act.ThreadMatch) {
	for i := range m[:min(len(m), maxNamed)] {
		if m[i].Thread.Name != nil {
			continue
		}
		if t, err := c.ReadThread(ctx, m[i].Thread.ID); err == nil && t.Name != nil && *t.Name != "" {
			m[i].Thread.Name = t.Name
		}
	}
}

// threadNames reads codex's index of thread names (one JSON object a
// line: id, thread_name; the last line of an id wins). A missing or
// unreadable index names nothing.
func threadNames(path string) map[string]string {
	names := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return names
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20) // longer lines are not names: skipped
	for sc.Scan() {
		if id, name, ok := backend.SessionIndexEntry(sc.Bytes()); ok {
			names[id] = name
		}
	}
	return names
}

// maxSearchPages bounds the pages of thread/search read.
const maxSearchPages = 20

// findOnServer runs thread/search (newest updated first) and keeps the
// threads of cwd ("" every one). The server marks nothing: the match is
// found again in its snippet.
func findOnServer(ctx context.Context, s backend.ThreadSearcher, query, cwd string) ([]act.ThreadMatch, error) {
	var out []act.ThreadMatch
	var cursor *string
	for range maxSearchPages {
		page, err := s.SearchThreads(ctx, backend.ThreadSearchParams{SearchTerm: query, Cursor: cursor, Limit: 100, SortKey: backend.SortUpdated})
		if err != nil {
			if backend.Unsupported(err) {
				return nil, fmt.Errorf("this codex has no thread/search (%s): searching across threads over --ssh or --remote needs codex 0.169.0 or later", redact.String(err.Error()))
			}
			return nil, errors.New(redact.String(err.Error()))
		}
		for _, r := range page.Data {
			if cwd != "" && r.Thread.Cwd != cwd {
				continue
			}
			r.Thread.Turns = nil
			out = append(out, act.ThreadMatch{Thread: r.Thread, Snippet: r.Snippet, Match: matchIn(r.Snippet, query)})
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	return out, nil
}

// matchIn is the byte range of query in s, ignoring ASCII case ([0 0]:
// not in it).
func matchIn(s, query string) [2]int {
	i := strings.Index(asciiFold(s), asciiFold(query))
	if i < 0 || query == "" {
		return [2]int{}
	}
	return [2]int{i, i + len(query)}
}

// asciiFold is s with its ASCII letters lowered (the same length).
func asciiFold(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
