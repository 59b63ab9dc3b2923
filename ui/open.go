package ui

// Opener is a cell the transcript draws collapsed: Open draws it whole
// from then on (a search found a match in what it hides). A cell
// opened already is left as it is.
type Opener interface{ Open() }

// Open implements Opener: the output expanded (as Ctrl+O does).
func (c *CommandCell) Open() {
	if !c.Expanded {
		c.ToggleExpanded()
	}
}

// Open implements Opener: the whole summary, not its heading.
func (c *ReasoningCell) Open() {
	if !c.Opened {
		c.Opened = true
		c.Touch()
	}
}

// Open implements Opener: every detail line.
func (c *ToolCell) Open() {
	if !c.Opened {
		c.Opened = true
		c.Touch()
	}
}

// openDiffLines is the diff lines per file an opened FileChangeCell
// shows: all of them.
const openDiffLines = 1 << 30

// Open implements Opener: every line of every file's diff.
func (c *FileChangeCell) Open() {
	if c.MaxDiffLines != openDiffLines {
		c.MaxDiffLines = openDiffLines
		c.Touch()
	}
}
