package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// maxIntents bounds the intents one message may set off (a loop between
// components is a bug; this keeps it from hanging the program).
const maxIntents = 1000

// apply carries out what the components asked for while a message was
// handled (m.out): each intent goes to the component that takes it, which
// may ask for more — carried out before the intents after it, as a call
// would have been (a thread opened before the banners that follow it);
// each client call runs as a command (act.Run: the one place that calls
// the client); the components' own commands run as they are. It returns
// the commands.
func (m *Model) apply() tea.Cmd {
	var cmds []tea.Cmd
	for n := 0; len(m.env.Out.Intents) > 0 && n < maxIntents; n++ {
		i := m.env.Out.Intents[0]
		rest := m.env.Out.Intents[1:]
		m.env.Out.Intents = nil
		switch i := i.(type) {
		case act.Request:
			if c := m.turn.Client(); c != nil { // model/turn: the session's client
				cmds = append(cmds, act.Run(c, i))
			}
		case act.Banner:
			m.panes.Banner(i)
		// The composer's asks for code still in the root: Enter (the slash
		// commands first, then the turn machine), the pickers' and the
		// form's (YieldKeys), the paste routing (PasteText).
		case act.Submit:
			if strings.TrimSpace(i.Raw) == "" {
				break
			}
			if !m.commands.Enter(i.Raw) { // model/commands: a command by its whole name
				m.turn.Enter(i) // model/turn
			}
		case act.RunQueued: // a queued line that reads as a command, its turn come
			if !m.commands.Queued(i.Raw) { // model/commands
				m.turn.SendQueued(i.Raw) // model/turn: it only read as one
			}
		case act.YieldKeys:
			m.overlay.Yield() // model/overlay
		case act.PasteText:
			cmds = append(cmds, m.onPaste(i.Text)) // compose.go
		// The turn machine's asks of the root, the overlay and a rewind.
		case act.StartFrames:
			cmds = append(cmds, m.stat.StartFrames(), m.stat.SpinTick()) // model/status
		case act.TurnEnded: // the title and a notification (model/status)
			cmds = append(cmds, m.stat.TurnEnded(i.Turn, i.Took, m.stat.Label(m.panes.Name(), m.panes.Thread()), m.live()))
		case act.RefuseRequests: // the refusals are written before what follows them
			cmds = append(cmds, inOrder(m.overlay.RefuseAll(), i.Then))
		case act.DropRequests:
			m.overlay.Drop()
		case act.PickThread:
			m.overlay.PickThread(i.Fresh, i.Durable)
		// The slash commands' asks of the rewind, the overlay and the
		// composer (model/commands).
		case act.Undo:
			if why := m.rewind.Undo(); why != "" { // model/rewind; the command checked UndoBlocked
				m.env.Out.Notice(act.NoticeInfo, why)
			}
		case act.PickModel:
			m.overlay.PickModel(i.Current) // model/overlay
		case act.PickPolicy:
			m.overlay.PickPolicy(i.Approval, i.Sandbox)
		case act.CheckAccount:
			m.overlay.CheckAccount()
		case act.ClosePopup:
			m.composer.ClosePopup() // model/composer
		case act.ReopenPopup:
			m.composer.ReopenPopup()
		default:
			if m.composer.Apply(i) || m.turn.Apply(i) || m.rewind.Apply(i) || m.panes.Apply(i, m.doneFacts) {
				break
			}
			if cmd, ok := m.applyOverlay(i); ok { // overlay.go: the overlay's intents
				cmds = append(cmds, cmd)
			} else {
				m.stat.Apply(i)
			}
		}
		m.env.Out.Intents = append(m.env.Out.Intents, rest...) // what i asked for goes first
	}
	m.env.Out.Intents = nil
	cmds = append(cmds, m.env.Out.Cmds...)
	m.env.Out.Cmds = nil
	return tea.Batch(cmds...)
}
