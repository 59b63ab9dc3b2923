// Package deck is the command center: one Bubble Tea model over many
// threads, each a lane holding its own *model.Model. It routes each
// lane's messages (LaneMsg) to that lane's model and keys to the focused
// one, and draws the focused lane, the list of every thread, or the inbox
// of every request that waits. A lane not on screen costs its fold
// (Update), never a View. docs/AGENTS.md says how it is used.
package deck

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
	"tandem/model/keys"
)

// LaneID names a lane; the host picks it (unique in one deck) before it
// builds the lane, so the lane's backend sink can tag its events.
type LaneID int

// LaneMsg is a message for one lane: a backend event of its thread, or
// what a command its model returned produced (the deck tags those
// itself).
type LaneMsg struct {
	Lane LaneID
	Msg  tea.Msg
}

// Pane is what a lane holds: a *model.Model (tests may wrap one).
type Pane interface {
	tea.Model
	State() model.State
}

// Lane is one thread as the host hands it to the deck.
type Lane struct {
	ID    LaneID
	Model Pane
	// Title names the thread until it has a name of its own (the prompt
	// it was started with, say).
	Title string
	// Worktree is the git worktree the thread runs in ("" for none: the
	// row shows the thread's cwd); Branch that worktree's branch, or the
	// checkout's ("" for none shown).
	Worktree, Branch string
	// Elsewhere: the thread belongs to another workspace (the list
	// shows it only once the scope key shows all threads).
	Elsewhere bool
	// Thread is the thread the lane opens ("" for a new one), known
	// before the lane's model has it: a stored thread the list shows is
	// listed once, as this lane.
	Thread string
}

// AddLane adds a lane to the deck (or, for a lane it holds, replaces its
// Title, Worktree, Branch and Elsewhere, and its Model when not nil): the
// message a Host's New command gives back, or one the host sends.
type AddLane struct{ Lane Lane }

// DropLane takes a lane out of the deck (the host stopped or archived its
// thread, or removed its worktree); What, when set, is the list's notice.
// The list then reads the stored threads again (Host.Threads).
type DropLane struct {
	Lane LaneID
	What string
}

// Result is a host command's outcome the list shows as its notice: What
// was done, or Err why not. Confirm marks Err as RemoveWorktree's
// refusal that force overrides (uncommitted changes, unmerged commits,
// named in Err): the list shows it and asks before it forces.
type Result struct {
	Lane    LaneID
	What    string
	Err     error
	Confirm bool
	// Commit, on Merge's refusal of the worktree's uncommitted changes,
	// names every one of them (relative to the worktree's root): the
	// list asks whether to commit them and merge (Host.CommitMerge).
	Commit []string
}

// Checkout is what the host found of the checkout a lane's thread runs
// in: the worktree tandem made it in ("" for none) and the branch
// checked out there ("" unknown). It sets the lane's Worktree and
// Branch.
type Checkout struct {
	Lane             LaneID
	Worktree, Branch string
}

// StoredThread is a thread the server keeps (thread/list) as the list
// shows it before it is opened: Name is its name, else its first
// prompt; Worktree and Branch are set for a worktree tandem made;
// Elsewhere for a thread of another workspace.
type StoredThread struct {
	ID, Name, Cwd    string
	Worktree, Branch string
	Created, Updated time.Time
	Elsewhere        bool
}

// Stored is Host.Threads' answer: the stored threads of this workspace
// (All false) or of every workspace, newest first, or Err why they
// could not be read.
type Stored struct {
	All     bool
	Threads []StoredThread
	Err     error
	// seq is the deck's count of the fetch it answers: an older one's
	// answer is dropped.
	seq int
}

// Host carries out the list's actions; internal/cli implements it over
// the backend's lanes and internal/worktree. Each returns a command
// (nil: nothing to do) whose message is for the deck: AddLane, DropLane
// or Result. None may block in the call itself.
type Host interface {
	// New starts a thread with prompt; with worktree true in a new git
	// worktree on a new branch. Its command gives AddLane (or a Result
	// with the error).
	New(prompt string, worktree bool) tea.Cmd
	// Rename names the thread of lane (thread/name/set).
	Rename(lane LaneID, name string) tea.Cmd
	// Archive archives the thread of lane; its command gives DropLane.
	Archive(lane LaneID) tea.Cmd
	// Interrupt interrupts the running turn of lane.
	Interrupt(lane LaneID) tea.Cmd
	// Stop unloads the thread of lane; its command gives DropLane.
	Stop(lane LaneID) tea.Cmd
	// Threads reads the threads the server keeps (thread/list): this
	// workspace's, or with all every workspace's. Its command gives
	// Stored. The list calls it when it opens, when its scope changes
	// and when a lane is dropped — never per frame.
	Threads(all bool) tea.Cmd
	// Resume opens stored thread id as a new lane whose model resumes
	// it (its history); its command gives AddLane with Lane.Thread id
	// (a shared deck's host adds the lane to every viewer's deck
	// itself, and its command gives nothing, or a Result).
	Resume(threadID string) tea.Cmd
	// Merge merges the branch of the worktree lane's thread runs in back
	// into the checkout it came from (internal/worktree Merge): a Result
	// saying what merged, or why not (a conflict, uncommitted changes:
	// the files named, nothing changed).
	Merge(lane LaneID) tea.Cmd
	// RemoveWorktree removes the worktree lane's thread runs in and its
	// branch, and drops the lane (DropLane). Without force, uncommitted
	// changes or unmerged commits are refused: a Result with Confirm.
	RemoveWorktree(lane LaneID, force bool) tea.Cmd
	// CommitMerge commits files, the uncommitted changes of lane's
	// worktree that Merge refused (its Result's Commit), with message,
	// and merges as Merge does (internal/worktree CommitAndMerge): a
	// Result saying what merged, or why not — changes other than files
	// refuse the commit; a merge refused after the commit says the
	// commit stays on the branch.
	CommitMerge(lane LaneID, message string, files []string) tea.Cmd
}

// Thread is one lane as an Overlaps function sees it.
type Thread struct {
	ID               LaneID
	Summary          model.Summary
	Worktree, Branch string
}

// Overlaps returns the paths both threads change in one repository
// (nil: none). The deck calls it for every pair of lanes when the list is
// on screen and a lane was added, dropped or its name or changed paths
// changed since the last call, or after a Recheck: it must answer from
// what it holds, never run a command.
type Overlaps func(a, b Thread) []string

// Recheck tells the deck that what its Overlaps answers from changed
// outside the lanes' own events (a checkout's git status was read): the
// list asks it again. Send it bare or as a LaneMsg of any lane.
type Recheck struct{}

// Options configure a deck.
type Options struct {
	// Host carries out the list's actions (nil: each says it can't).
	Host Host
	// Keys is the keymap (nil: keys.Default()).
	Keys *keys.Map
	// Overlaps finds the paths two threads both change (nil:
	// SamePaths).
	Overlaps Overlaps
	// Now is the time ages are measured to (nil: time.Now).
	Now func() time.Time
	// KeyTime is the time a key is taken at, which tells a paste typed as
	// keys from typing (burst.go; nil: Now). A test gives its own pace.
	KeyTime func() time.Time
	// Home shortens paths under it to "~" ("": the user's home).
	Home string
	// Every asks for a tick after d (nil: tea.Tick): the list's ages'
	// clock (ages.go); a test gives its own.
	Every func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// List opens the deck on the list (`tandem agents`), not on the
	// first lane.
	List bool
	// ReadOnly is a watcher's deck (tandem serve --watcher-keys): it
	// opens any thread and lists the inbox, but refuses, with a notice,
	// every action (new, rename, archive, interrupt, stop) and every
	// answer from the inbox. Its lanes are watchers' models.
	ReadOnly bool
}

// mode is what the deck draws.
type mode int

const (
	modeLane  mode = iota // the focused lane's View
	modeList              // the list of threads
	modeInbox             // the requests that wait
	modePeek              // a lane's View, answering a request from the inbox
)

// Model is the command center, a tea.Model. Use New.
type Model struct {
	opts   Options
	keys   *keys.Map
	lanes  []*lane
	focus  LaneID // the lane shown in modeLane; noLane for none
	mode   mode
	width  int
	height int
	// list is the list's and the inbox's cursor, filter, scope and asked
	// input (keys.go).
	list listState
	// peek is the request answered in modePeek.
	peek peekState
	// sentWaiting is the DeckInfo last sent, and to which lane.
	sentInfo model.DeckInfo
	sentTo   LaneID
	sentAny  bool
	// conf are the conflicts the list shows (conflicts), kept until
	// confStale: Overlaps is asked for every pair of lanes only when a
	// lane came, went or changed its name or paths, not per frame.
	conf      map[LaneID][]string
	confStale bool
	quitArmed bool
	// noReadState: the server has no read state (readstate.go); askRead
	// are the lanes opened with a history since the last message, whose
	// read state is to be asked; leftRead the lanes marked read on
	// screen that left it since, marked once more.
	noReadState bool
	askRead     []LaneID
	leftRead    []LaneID
	// ticking: an ageTick is pending (ages.go).
	ticking    bool
	background bool // a background colour has been reported
}

// noLane is the focus of a deck without lanes.
const noLane LaneID = -1 << 31

// New returns a deck holding lanes, focused on the first of them (or on
// the list with Options.List or no lane).
func New(opts Options, lanes ...Lane) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Every == nil {
		opts.Every = tea.Tick
	}
	if opts.Overlaps == nil {
		opts.Overlaps = SamePaths
	}
	if opts.Home == "" {
		opts.Home, _ = os.UserHomeDir()
	}
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	d := &Model{opts: opts, keys: km, focus: noLane, confStale: true}
	for _, l := range lanes {
		d.add(l)
	}
	if len(d.lanes) > 0 && !opts.List {
		d.focus = d.lanes[0].ID
	} else {
		d.mode = modeList
	}
	return d
}

// Init implements tea.Model: every lane's Init, each tagged to its lane.
func (d *Model) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(d.lanes))
	for _, l := range d.lanes {
		cmds = append(cmds, wrap(l.ID, l.pane.Init()))
	}
	if d.mode == modeList {
		cmds = append(cmds, d.fetchStored())
	}
	return tea.Batch(cmds...)
}

// Update implements tea.Model. A LaneMsg goes to its lane; a window size,
// a background colour, a colour profile and focus reports go to every
// lane; keys, pastes and mouse go to the deck's own view, else to the
// lane on screen (the peeked one, or the focused one); any other
// untagged message (an exec's callback) goes to the focused lane.
func (d *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case LaneMsg:
		if b, ok := msg.Msg.(Batch); ok { // feed.go
			cmds = append(cmds, d.toLaneBatch(msg.Lane, b))
			break
		}
		if _, ok := msg.Msg.(Recheck); ok {
			d.confStale = true
			break
		}
		cmds = append(cmds, d.toLane(msg.Lane, msg.Msg))
	case Recheck:
		d.confStale = true
	case AddLane:
		cmds = append(cmds, d.addLane(msg.Lane))
		if s := &d.list; s.making != "" && s.notice == s.making && (!s.inWorktree || msg.Lane.Worktree != "") {
			s.notice, s.making = "", ""
		}
	case DropLane:
		cmds = append(cmds, d.drop(msg.Lane))
		if msg.What != "" {
			d.list.notice = msg.What
		}
		cmds = append(cmds, d.fetchStored())
	case ageTick:
		d.ticking = false // settle asks for the next one while the list is up
	case Result:
		d.list.noticeOf(msg)
		d.askCommit(msg) // commitmerge.go
	case Checkout:
		if l := d.lane(msg.Lane); l != nil {
			l.Worktree, l.Branch = msg.Worktree, msg.Branch
		}
	case Stored:
		d.list.takeStored(msg)
	case ReadState:
		d.takeReadState(msg)
	case tea.WindowSizeMsg:
		d.width, d.height = msg.Width, msg.Height
		for _, l := range d.lanes {
			cmds = append(cmds, d.toLane(l.ID, d.sizeFor(l.ID)))
		}
	case tea.FocusMsg, tea.BlurMsg:
		cmds = append(cmds, d.toAll(msg)...)
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		cmds = append(cmds, d.toAll(msg)...)
	case tea.KeyPressMsg:
		cmds = append(cmds, d.key(msg))
	case tea.PasteMsg:
		if d.ownsKeys() {
			d.list.paste(msg.Content)
		} else {
			cmds = append(cmds, d.toLane(d.onScreen(), msg))
		}
	case tea.KeyReleaseMsg, tea.MouseMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		if !d.ownsKeys() {
			cmds = append(cmds, d.toLane(d.onScreen(), msg))
		}
	default:
		cmds = append(cmds, d.toLane(d.focus, msg))
	}
	cmds = append(cmds, d.settle()...)
	return d, tea.Batch(cmds...)
}

// toAll gives msg to every lane.
func (d *Model) toAll(msg tea.Msg) []tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(d.lanes))
	for _, l := range d.lanes {
		cmds = append(cmds, d.toLane(l.ID, msg))
	}
	return cmds
}

// ownsKeys reports whether the deck's own view (the list, the inbox) has
// the keys.
func (d *Model) ownsKeys() bool { return d.mode == modeList || d.mode == modeInbox }

// onScreen is the lane whose View is drawn: the peeked one, else the
// focused one.
func (d *Model) onScreen() LaneID {
	if d.mode == modePeek {
		return d.peek.lane
	}
	return d.focus
}

// sizeFor is the window size lane id is told: the peeked lane's leaves
// the top line to the header naming it.
func (d *Model) sizeFor(id LaneID) tea.WindowSizeMsg {
	if d.mode == modePeek && id == d.peek.lane {
		return tea.WindowSizeMsg{Width: d.width, Height: max(1, d.height-1)}
	}
	return tea.WindowSizeMsg{Width: d.width, Height: d.height}
}

// Panes returns every lane's model by lane, for the program around the
// deck to shut down (refuse what waits, close spilled output).
func (d *Model) Panes() map[LaneID]Pane {
	out := make(map[LaneID]Pane, len(d.lanes))
	for _, l := range d.lanes {
		out[l.ID] = l.pane
	}
	return out
}
