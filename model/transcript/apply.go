package transcript

import "tandem/model/act"

// Apply takes an intent of the panes' (act's intents_turn.go: the turn
// machine's asks — a prompt echoed, a thread switched or its history
// loaded, a re-attach's merge and gaps); it reports whether it was one.
// facts reads the rest of the model for the intents that need it (the
// transcript's rows, whether a client can read more).
func (p *Panes) Apply(i act.Intent, facts func() DoneFacts) bool {
	switch i := i.(type) {
	case act.Echo:
		p.Echo(i.Cell)
	case act.ClearHeader:
		p.ClearHeader()
	case act.MarkGaps:
		p.MarkGaps()
	case act.EndGaps:
		p.EndGaps()
	case act.EndOpen:
		p.EndOpen(i.Turn, i.Status, i.All)
	case act.MergeHistory:
		p.Merge(i.Turns, i.Dropped, i.Shared)
	case act.LoadHistory:
		p.LoadHistory(i.Turns, i.Failures)
	case act.BeginOlder:
		p.BeginOlder(i.Thread, i.Cursor, facts().CanRead)
	case act.SetThread:
		p.SetCwd(i.Cwd)
		if i.ID != "" {
			p.SetThread(i.ID)
		}
		p.Named(i.Name, i.Created)
	case act.SwitchPane:
		p.Leave(i.How, i.Thread, i.From, i.Running)
		p.Open(i.Thread, i.Cwd)
	case act.Opened:
		p.Opened(i.How, i.From)
	case act.ScrollToTurn:
		f := facts()
		p.ScrollToTurn(i.ID, f.Height, f.CanRead)
	case act.ForgetPeek:
		p.ForgetPeek()
	case act.ShowPage:
		p.OpenPage(i.Title, i.Markdown)
	case act.ReadEarlier:
		f := facts()
		p.ListEarlierAgents(i.Thread)
		p.LoadOlderIfTop(f.Height, f.CanRead)
	default:
		return false
	}
	return true
}
