package hub

// ActionKind is what a driver did (ActionEvent).
type ActionKind int

const (
	// ActionPrompt is a message, a steer or a !command; Text is it as
	// sent.
	ActionPrompt ActionKind = iota
	// ActionInterrupt is an interrupt of the running turn.
	ActionInterrupt
)

// ActionEvent is logged by the pairing server just before a driver's
// action goes to the app-server, so that every viewer's transcript can
// say who did it: Who is the driver's name (the key's comment). A reply
// to a server request says its driver itself
// (backend.RequestResolvedEvent.By). It is not thread-scoped.
type ActionEvent struct {
	Who  string
	Kind ActionKind
	Text string
}

// Thread implements backend.Event.
func (ActionEvent) Thread() string { return "" }
