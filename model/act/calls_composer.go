package act

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// The composer's calls: the skills of the `$` popup and the files of the
// `@` popup.

// ListSkills is `skills/list` for the workspace Cwd (Force: the disk is
// scanned again); its result is a SkillsListed with the same Seq.
type ListSkills struct {
	Seq   int
	Cwd   string
	Force bool
}

// SkillsListed is a ListSkills answer: Entry, or Err.
type SkillsListed struct {
	Seq   int
	Entry backend.SkillsListEntry
	Err   error
}

func (a ListSkills) run(ctx context.Context, c backend.Client) tea.Msg {
	entry, err := c.ListSkills(ctx, a.Cwd, a.Force)
	return SkillsListed{Seq: a.Seq, Entry: entry, Err: err}
}

// SearchFiles is `fuzzyFileSearch` for Query under Roots; its result is
// a FilesFound with the same Seq.
type SearchFiles struct {
	Seq   int
	Query string
	Roots []string
}

// FilesFound is a SearchFiles answer: the matches, best first, or Err.
type FilesFound struct {
	Seq   int
	Query string
	Files []backend.FuzzyFileMatch
	Err   error
}

func (a SearchFiles) run(ctx context.Context, c backend.Client) tea.Msg {
	files, err := c.FuzzyFileSearch(ctx, a.Query, a.Roots)
	return FilesFound{Seq: a.Seq, Query: a.Query, Files: files, Err: err}
}
