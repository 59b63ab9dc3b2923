package overlay

import (
	"fmt"

	"charm.land/huh/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/thread"
	"tandem/ui"
)

// adapter is one server request kind as the overlay shows and answers
// it: the form (a forms spec from the typed params), the typed
// reply for the form's result, the refusal, and the notification line.
// Replies are returned as functions that the overlay runs in a command
// (reply), so no write happens inside Update. Adapters know forms and
// backend, never JSON-RPC.
type adapter interface {
	// arrive handles a request that needs no person as it comes in: ok,
	// the reply to send, and a banner for the user ("" for none).
	arrive() (send func() error, banner string, ok bool)
	// open builds the form to show; a nil form means there is nothing to
	// ask, and send answers the request at once (banner says why).
	open(e formEnv) (f forms.Form, send func() error, banner string)
	// answer is the reply for the finished form, aborted or not.
	answer(f forms.Form) func() error
	// summary says in a few words what the request wants (the desktop
	// notification).
	summary() string
}

// folded is an adapter whose form shows what the fold holds, which may
// change while it is open (a file change's diff): shows is that content
// as the form is built, changed whether it differs now from such a value.
type folded interface {
	shows(e formEnv) any
	changed(e formEnv, was any) bool
}

// needsPerson is the arrive of the adapters whose requests always wait
// for the user.
type needsPerson struct{}

func (needsPerson) arrive() (func() error, string, bool) { return nil, "", false }

// adapters pairs every server request kind of backend's table
// with its adapter (a test walks both tables).
var adapters = map[string]func(backend.ServerRequest) adapter{
	backend.MethodCommandApproval: func(r backend.ServerRequest) adapter {
		return commandApproval{r: r.(*backend.CommandApprovalRequest)}
	},
	backend.MethodFileChangeApproval: func(r backend.ServerRequest) adapter {
		return fileChangeApproval{r: r.(*backend.FileChangeApprovalRequest)}
	},
	backend.MethodExecCommandApproval: func(r backend.ServerRequest) adapter {
		return legacyCommand{r: r.(*backend.ExecCommandApprovalRequest)}
	},
	backend.MethodApplyPatchApproval: func(r backend.ServerRequest) adapter {
		return legacyPatch{r: r.(*backend.ApplyPatchApprovalRequest)}
	},
	backend.MethodPermissionsApproval: func(r backend.ServerRequest) adapter {
		return permissions{r: r.(*backend.PermissionsApprovalRequest)}
	},
	backend.MethodToolCall:          func(r backend.ServerRequest) adapter { return toolCall{r: r.(*backend.ToolCallRequest)} },
	backend.MethodUserInput:         func(r backend.ServerRequest) adapter { return userInput{r: r.(*backend.UserInputRequest)} },
	backend.MethodElicitation:       func(r backend.ServerRequest) adapter { return elicitation{r: r.(*backend.ElicitationRequest)} },
	backend.MethodAuthTokensRefresh: autoAnswer,
	backend.MethodAttestation:       autoAnswer,
	backend.MethodCurrentTime:       autoAnswer,
}

// waitingFor is what a watcher reads the session waits for, by method.
var waitingFor = map[string]string{
	backend.MethodCommandApproval:    "approval of a command",
	backend.MethodFileChangeApproval: "approval of file changes",
	backend.MethodToolCall:           "answers to the agent's questions",
}

// adapterFor returns req's adapter. A kind without one (which the table
// test rules out) is refused.
func adapterFor(req backend.ServerRequest) adapter {
	if mk, ok := adapters[req.Method()]; ok {
		return mk(req)
	}
	return refusal{req}
}

// refusal answers a request tandem has no adapter for with its refusal.
type refusal struct{ r backend.ServerRequest }

func (a refusal) arrive() (func() error, string, bool) {
	return a.r.Refuse, "tandem cannot answer " + a.r.Method() + "; refused", true
}
func (a refusal) open(formEnv) (forms.Form, func() error, string) { return nil, a.r.Refuse, "" }
func (a refusal) answer(forms.Form) func() error                  { return a.r.Refuse }
func (a refusal) summary() string                                 { return "tandem: the agent has a request" }

// auto answers the requests that need no person (backend.AutoAnswered).
type auto struct{ r backend.AutoAnswered }

func autoAnswer(r backend.ServerRequest) adapter {
	if a, ok := r.(backend.AutoAnswered); ok {
		return auto{a}
	}
	return refusal{r}
}

func (a auto) arrive() (func() error, string, bool) { return a.r.AutoAnswer, a.r.Notice(), true }
func (a auto) open(formEnv) (forms.Form, func() error, string) {
	return nil, a.r.AutoAnswer, ""
}
func (a auto) answer(forms.Form) func() error { return a.r.AutoAnswer }
func (a auto) summary() string                { return "tandem: the agent has a request" }

// formEnv is what building a form needs from the rest of the model: the theme, the
// room on screen, the thread (a file-change approval shows the diff of
// its item) and the sanitizers that make server text safe to draw.
type formEnv struct {
	theme      huh.Theme
	styles     ui.Styles
	width      int
	maxHeight  int // rows the form may take (formMaxHeight)
	diffHeight int
	thread     *thread.State
	threadCwd  string
	// asker names who asks when it is not the thread itself ("Sub-agent
	// Dewey"): the form's title says so.
	asker string
	// keys are the forms' bindings; pagerKey names the pager's key.
	keys     forms.Keys
	pagerKey string
}

// formKeys are the forms' bindings, from the keymap.
func (o *Overlay) formKeys() forms.Keys {
	km := o.keys
	return forms.Keys{Huh: km.Huh(), LineUp: km.DiffLineUp, LineDown: km.DiffLineDown, HalfUp: km.DiffHalfUp, HalfDown: km.DiffHalfDown, PageUp: km.DiffPageUp, PageDown: km.DiffPageDown}
}

func (o *Overlay) formEnv() formEnv {
	w := o.opts.World
	r := w.Room()
	return formEnv{theme: o.look.Theme, styles: o.look.Styles, width: r.Width, maxHeight: o.maxHeight(r),
		diffHeight: diffHeight(r.Height), threadCwd: w.ThreadCwd(),
		keys: o.formKeys(), pagerKey: o.keys.Pager.Help().Key}
}

// maxDiffRows caps the diff window of a file-change approval.
const maxDiffRows = 14

// diffHeight is the diff window's rows in a window of height rows (0:
// not known yet).
func diffHeight(height int) int {
	if height <= 0 {
		return maxDiffRows
	}
	return max(3, min(maxDiffRows, height/3))
}

// diffRows renders files as the coloured diff lines of a file-change
// approval, every line, each file under a header with its kind, path
// (and a move's target) and counts.
func (e formEnv) diffRows(files []ui.FileDiff) []string {
	var rows []string
	for _, f := range files {
		a, d := ui.FileDiffStat(f)
		path := ui.SanitizeLine(f.Path)
		if f.MovePath != "" && f.MovePath != f.Path {
			path += " → " + ui.SanitizeLine(f.MovePath)
		}
		rows = append(rows, e.styles.DiffHeader.Render(ui.Truncate(fmt.Sprintf("%s %s (+%d −%d)", ui.SanitizeLine(f.Kind), path, a, d), e.width)))
		rows = append(rows, ui.RenderFileDiff(e.styles, f, e.width, 1<<30)...)
	}
	return rows
}

// approval builds an approval form from s, made safe to draw and fitted
// to the rows the form may take.
func (e formEnv) approval(s forms.ApprovalSpec) forms.Form {
	s = safeApproval(s)
	if e.asker != "" {
		s.Title = e.asker + " asks: " + s.Title
	}
	s.MaxHeight = e.maxHeight
	s.MoreHint = e.pagerKey + " shows all" // openPager adds the whole of it
	return forms.NewApproval(s, forms.Look{Theme: e.theme, Keys: e.keys}, e.width)
}

// questions builds a questions form from s: options beyond the rows
// below the transcript scroll, with a hint.
func (e formEnv) questions(s forms.QuestionsSpec) forms.Form {
	s = safeQuestions(s)
	s.MaxHeight = e.maxHeight
	return forms.NewQuestions(s, forms.Look{Theme: e.theme, Keys: e.keys}, e.width)
}

// choice returns the value chosen in an approval form; ok is false when
// it was aborted.
func choice(f forms.Form) (any, bool) {
	a, ok := f.(*forms.Approval)
	if !ok {
		return nil, false
	}
	return a.Choice()
}
