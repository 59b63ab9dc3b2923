package act

// Pick opens a list above the composer (the overlay's, model/overlay), in
// place of any other picker: the sub-agents, an earlier message to edit,
// the history search, a rewind's choices. Typing filters it with fuzzy
// matching on the labels; Enter asks for the chosen item's Choose, Esc
// for Cancel.
type Pick struct {
	Title string
	// Hint is the key help under the title; Empty what to say when nothing
	// matches ("" for "no matches").
	Hint, Empty string
	Items       []PickItem
	// Query is the search it opens with (Ctrl+R: the draft).
	Query string
	// Cancel is asked for when Esc closes it (nil: nothing).
	Cancel Intent
	// Ordered keeps the items' order while typing filters them (Ctrl+R:
	// newest first); otherwise the best matches come first.
	Ordered bool
}

// PickItem is one row of a Pick.
type PickItem struct {
	// Label is the row, Detail a dim text after it.
	Label, Detail string
	// Choose is what choosing it asks for (nil: nothing, the picker just
	// closes).
	Choose Intent
	// Preview is drawn under the list while the item is selected.
	Preview []string
}
