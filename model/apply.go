package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// maxIntents bounds the intents one message may set off (a loop between
// components is a bug; this keeps it from hanging the program).
const maxIntents = 1000

// apply carries out what the components asked for while a message was
// handled (m.out): each intent goes to the component that takes it, which
// may ask for more; each client call runs as a command (act.Run: the one
// place that calls the client); the components' own commands run as they
// are. It returns the commands.
func (m *Model) apply() tea.Cmd {
	var cmds []tea.Cmd
	for n := 0; len(m.out.Intents) > 0 && n < maxIntents; n++ {
		i := m.out.Intents[0]
		m.out.Intents = m.out.Intents[1:]
		switch i := i.(type) {
		case act.Request:
			if m.client != nil {
				cmds = append(cmds, act.Run(m.client, i))
			}
		case act.Banner:
			m.panes.Banner(i)
		// The composer's asks, for code still in the root: the turn
		// machine's (Submit, Queue, CheckImages), the pickers' and the
		// form's (HistorySearch, YieldKeys), the paste routing (PasteText).
		case act.Submit:
			cmds = append(cmds, m.onEnter(i)) // turn.go
		case act.Queue:
			m.queueDraft(i.Raw) // turn.go
		case act.CheckImages:
			cmds = append(cmds, m.fetchModels()) // images.go
		case act.HistorySearch:
			m.openHistorySearch(i) // pickers.go
		case act.YieldKeys:
			m.overlay.Yield() // model/overlay
		case act.PasteText:
			cmds = append(cmds, m.onPaste(i.Text)) // compose.go
		default:
			if m.composer.Apply(i) {
				continue
			}
			if cmd, ok := m.applyCommands(i); ok { // commands.go: the slash commands' intents
				cmds = append(cmds, cmd)
			} else if cmd, ok := m.applyOverlay(i); ok { // overlay.go: the overlay's intents
				cmds = append(cmds, cmd)
			} else {
				m.stat.Apply(i)
			}
		}
	}
	m.out.Intents = nil
	cmds = append(cmds, m.out.Cmds...)
	m.out.Cmds = nil
	return tea.Batch(cmds...)
}
