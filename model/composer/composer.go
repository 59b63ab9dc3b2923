// Package composer is the message being written: the draft
// (internal/lib/textedit), the workspace's prompt history and its Ctrl+R
// search, large pastes behind placeholder tokens, image chips (pasted
// paths, the clipboard, -i), $EDITOR, the / @ $ popups, and the timing
// of keys that tells a paste typed as keys from typing (the burst
// detector, the hold of a decisive key).
//
// Every key press passes its gate first (KeyIn); the root then routes
// the key, and the keys of the composer's side come back here (Key, and
// Edit for the draft's editing keys). Pastes routed here come to Paste,
// the composer's own messages (timers, the clipboard, the editor, a
// pasted path's check) to Update, the results of its calls (the skills,
// the file search) to Result. What it wants of others goes into the Out
// of its act.Env: Enter is act.Submit, Tab while a turn runs act.Queue,
// Ctrl+R act.Pick, and so on; others ask it act.SetDraft,
// act.RestoreDraft and act.AddHistory (Apply). It never imports the root
// model or another component.
package composer

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/textedit"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/sessions"
)

// Options configure a Composer.
type Options struct {
	// Keys is the keymap (nil: keys.Default()).
	Keys *keys.Map
	// State keeps the prompt history per workspace (nil: none is kept).
	// Workspace is the absolute cwd it is keyed by, also where a relative
	// pasted path is found and the @ search's root while the thread's
	// workspace is not known.
	State     *sessions.Store
	Workspace string
	// CodexHistory is the path of codex's own history.jsonl, whose
	// prompts Ctrl+R lists with every workspace's ("": none).
	CodexHistory string
	// Placeholder is what the empty draft says ("": "Ask Codex to do
	// anything").
	Placeholder string
	// Commands are the slash commands the / popup lists, in order.
	Commands []Command
	// Facts reads what the composer needs of the rest of the model, when
	// it needs it (nil: nothing is queued, there is no app-server).
	Facts func() Facts
}

// Command is a slash command as the / popup lists it.
type Command struct {
	Name  string // without the "/"
	About string // its description, its key filled in
}

// Facts are what the composer reads of the rest of the model.
type Facts struct {
	// Queued are the prompts queued for the next turns: the pastes they
	// hold are kept.
	Queued []string
	// Busy: a turn runs or is being started (Tab queues the draft).
	Busy bool
	// Online: there is an app-server to ask (the @ file search); Ready:
	// its session is ready (skills/list).
	Online, Ready bool
	// Remote: the app-server runs on another machine, so pasted paths are
	// its own; ThreadCwd is the thread's workspace there ("" not known).
	Remote    bool
	ThreadCwd string
}

// Composer is the message being written and everything that feeds it.
// Use New; it is used by pointer.
type Composer struct {
	env  act.Env
	opts Options
	keys *keys.Map

	buf *textedit.Buffer
	// ta draws the empty draft: its placeholder, exactly as the bubbles
	// textarea the composer was built on drew it. It never holds text.
	ta    textarea.Model
	cur   cursor.Model // the virtual cursor over the draft
	st    styles
	width int // the window's width, as SetWidth set it
	top   int // the first visual row shown
	// dropped: an edit deleted text since the last pruneAfterKey, so a
	// placeholder token may have gone.
	dropped bool
	// gen counts the draft's wholesale replacements (SetDraft, a history
	// entry, a chip put in place): a paste burst's start is void after
	// one.
	gen int
	// placeholder is the empty draft's drawing (the textarea's
	// placeholder) until the textarea changes: every frame of an idle
	// composer, for every guest of a shared session, drew it anew.
	placeholder string
	// light: the draft is drawn for a light background (SetDark).
	light bool

	pastes   []pasted
	pasteSeq int
	imageSeq int // numbers the image chips (images.go)

	hist history // history.go

	burst  burst     // burst.go: a paste that arrives as keys
	held   heldKey   // gate.go: a decisive key waiting for a next one
	heldAt time.Time // gate.go: the arrival of the held key acting now

	popup  popup       // popup.go
	skills skillsState // skills.go
	// fileSeq numbers the @ searches; older answers are dropped.
	fileSeq int
}

const (
	// promptWidth is the width of the composer's prompt column.
	promptWidth = 2
	// maxRows is the composer's height at most; a longer draft scrolls
	// (the content itself is unlimited: a long paste is never cut).
	maxRows = 8
	// maxWidth caps the draft's width, as the textarea did.
	maxWidth = 500
)

// New returns an empty composer.
func New(env act.Env, opts Options) *Composer {
	if opts.Keys == nil {
		opts.Keys = keys.Default()
	}
	ta := textarea.New()
	ta.SetPromptFunc(promptWidth, prompt) // › on the first row only
	ta.Placeholder = "Ask Codex to do anything"
	if opts.Placeholder != "" {
		ta.Placeholder = opts.Placeholder
	}
	ta.ShowLineNumbers = false
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = maxRows
	ta.SetHeight(1)
	ta.CharLimit = 0
	ta.Focus()
	cur := cursor.New()
	cur.Focus()
	return &Composer{env: env, opts: opts, keys: opts.Keys, buf: textedit.New(1), ta: ta, cur: cur,
		st: newStyles(ta.Styles().Focused)}
}

// SetDark draws the draft for a dark background (the textarea's own
// styles, as New has them), or a light one: the textarea's light styles
// (the row under the cursor, the placeholder) and a prompt dark enough to
// read.
func (c *Composer) SetDark(dark bool) {
	if dark == !c.light {
		return
	}
	c.light = !dark
	st := textarea.DefaultStyles(dark)
	if !dark {
		st.Focused.Prompt = st.Focused.Prompt.Foreground(lipgloss.Color("240"))
	}
	c.ta.SetStyles(st)
	c.st = newStyles(st.Focused)
	c.placeholder = "" // drawn again in the new styles
}

// facts reads the rest of the model (Options.Facts).
func (c *Composer) facts() Facts {
	if c.opts.Facts == nil {
		return Facts{}
	}
	return c.opts.Facts()
}

// out is where the composer asks for things.
func (c *Composer) out() *act.Out { return c.env.Out }

// Value returns the draft as typed, placeholder tokens included
// (O(length): not for every key).
func (c *Composer) Value() string { return c.buf.Text() }

// Empty reports whether the draft is empty.
func (c *Composer) Empty() bool { return c.buf.Len() == 0 }

// Text returns the draft with the large pastes expanded: what Enter
// would send.
func (c *Composer) Text() string { return c.Expand(c.buf.Text()) }

// Height returns the rows the composer takes: the draft's rows, 1 to 8.
func (c *Composer) Height() int {
	if c.Empty() {
		return c.ta.Height()
	}
	return min(max(c.buf.Rows(), 1), maxRows)
}

// SetWidth fits the composer to the window's width w (re-wrapping the
// draft: O(length), once per resize).
func (c *Composer) SetWidth(w int) {
	c.width = w
	c.ta.SetWidth(w)
	c.placeholder = ""
	c.buf.SetWidth(max(min(w, maxWidth), promptWidth+1) - promptWidth)
	c.refit()
}

// SetWidthMethod measures the draft as the renderer measures it for the
// terminal (textedit.Buffer.SetMethod).
func (c *Composer) SetWidthMethod(m ansi.Method) {
	c.buf.SetMethod(m)
	c.refit()
}

// refit scrolls the draft so the cursor's row is shown, after any change.
func (c *Composer) refit() {
	h := c.Height()
	row := c.buf.CursorRow()
	if row < c.top {
		c.top = row
	} else if row >= c.top+h {
		c.top = row - h + 1
	}
	c.top = max(0, min(c.top, c.buf.Rows()-h))
}

// put replaces the draft (a large text becomes a placeholder) and puts
// the history walk back at the draft.
func (c *Composer) put(s string) {
	c.buf.SetText(c.LargeAsPaste(s))
	c.dropped = true
	c.gen++
	c.refit()
	c.hist.pos = len(c.hist.list)
}

// SetDraft replaces the draft with s (a large text becomes a
// placeholder), closes the popup and drops the pastes nothing holds any
// more.
func (c *Composer) SetDraft(s string) {
	c.Replace(s)
	c.Prune()
}

// Replace is SetDraft keeping every paste: the draft replaced may come
// back (a command that refuses keeps it, a turn that fails to start gives
// it back). Prune drops them after.
func (c *Composer) Replace(s string) {
	c.put(s)
	c.popup = popup{}
}

// RestoreDraft puts text, a prompt that was not delivered, back in the
// draft, ahead of anything typed since.
func (c *Composer) RestoreDraft(text string) {
	text = c.LargeAsPaste(text)
	cur := c.Value()
	if strings.TrimSpace(cur) != "" && cur != text {
		text = text + "\n" + cur
	}
	c.SetDraft(text)
}

// Discard empties a draft about to be lost (Ctrl+C) into the history, so
// Up brings it back, and closes its popup. It reports false when the
// draft was empty (nothing is done).
func (c *Composer) Discard() bool {
	if c.Empty() {
		return false
	}
	c.rememberDraft()
	c.reset()
	c.popup = popup{}
	return true
}

// reset empties the draft.
func (c *Composer) reset() {
	c.buf.SetText("")
	c.dropped = true
	c.gen++
	c.refit()
}

// insert inserts s at the cursor.
func (c *Composer) insert(s string) {
	c.buf.Insert(s)
	c.refit()
}

// Apply takes an intent of the composer's (act.SetDraft,
// act.RestoreDraft, act.AddHistory, act.FetchSkills, act.PrunePastes);
// it reports whether it was one.
func (c *Composer) Apply(i act.Intent) bool {
	switch i := i.(type) {
	case act.SetDraft:
		c.SetDraft(i.Text)
	case act.RestoreDraft:
		c.RestoreDraft(i.Text)
	case act.AddHistory:
		c.AddHistory(i.Entry)
	case act.FetchSkills:
		c.FetchSkills(i.Force)
	case act.PrunePastes:
		c.Prune()
	default:
		return false
	}
	return true
}

// Msg is a message of the composer's own (its timers, the clipboard, the
// editor, a pasted path's check): the root hands it to Update.
type Msg interface{ composerMsg() }

// Update takes a message of the composer's own (Msg), or anything else
// for the cursor (its blink). A held key that stood alone comes back as
// a Verdict to Release; otherwise the Verdict is None.
func (c *Composer) Update(msg tea.Msg) Verdict {
	switch msg := msg.(type) {
	case holdTickMsg:
		return c.onHoldTick(msg)
	case burstTickMsg:
		c.onBurstTick(msg)
	case imagePasteMsg:
		c.onImagePaste(msg)
	case clipboardMsg:
		c.onClipboard(msg)
	case editorDoneMsg:
		c.onEditorDone(msg)
	default:
		var a, b tea.Cmd
		c.cur, a = c.cur.Update(msg)
		c.ta, b = c.ta.Update(msg)
		c.placeholder = "" // the blink may have changed it
		c.out().Cmd(tea.Batch(a, b))
	}
	return Verdict{}
}

// Result takes the answer of a call the composer asked for (act.Done's
// Msg for act.ToComposer): the skills, the @ search's files.
func (c *Composer) Result(msg tea.Msg) {
	switch msg := msg.(type) {
	case act.SkillsListed:
		c.onSkillsListed(msg)
	case act.FilesFound:
		c.onFilesFound(msg)
	}
}

// Submission is what Enter submits now: the draft as typed, expanded,
// and as the history keeps it; the newlines that end the draft (a paste
// typed as keys, its Enter kept as a newline) are not part of it.
func (c *Composer) Submission() act.Submit {
	raw := strings.TrimRight(c.buf.Text(), "\r\n")
	text := c.Expand(raw) // placeholders → the pasted text (image chips stay)
	return act.Submit{Raw: raw, Text: text, Hist: c.HistEntry(raw, text)}
}
