package act

// The composer's intents: what it asks of others (Submit, Queue,
// YieldKeys, PasteText, CheckImages; Ctrl+R's history search is a Pick),
// and what others ask of it (SetDraft, RestoreDraft, AddHistory).

// Submit is Enter on the draft (the root, for the turn machine and the
// slash commands): Raw is the draft as typed, placeholder tokens
// included; Text the same with the large pastes expanded (image chips
// stay); Hist what the history keeps of it.
type Submit struct{ Raw, Text, Hist string }

// Queue is Tab while a turn runs (the root, for the turn machine): Raw,
// the draft as typed, is queued for the next turn and the draft emptied.
type Queue struct{ Raw string }

// YieldKeys asks the shown form that has the keys to give them up (the
// root, for the overlay): keys it did not want went to the composer as a
// paste, and the form waits until that draft is sent or cleared.
type YieldKeys struct{}

// PasteText is text to paste as a bracketed paste is (the root routes
// it: a form or the login form that takes it, else the composer): the
// clipboard's text read by Ctrl+V.
type PasteText struct{ Text string }

// CheckImages says image chips were attached (the root, for the turn
// machine): it asks model/list, once, whether the model takes images.
type CheckImages struct{}

// SetDraft replaces the draft with Text, a large one as a placeholder,
// and closes the popup (composer).
type SetDraft struct{ Text string }

// RestoreDraft puts Text, a prompt that was not delivered, back in the
// draft ahead of anything typed since (composer).
type RestoreDraft struct{ Text string }

// AddHistory records Entry, a prompt sent, in the workspace's history
// (composer).
type AddHistory struct{ Entry string }
