package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// Single-choice lists. What is answered must be exactly the choice the
// person sees highlighted when they press the choosing key, so tandem
// keeps huh's select from three things it does on its own:
//
//   - wrapping round: Down on the last choice would highlight the first
//     (from "No, and stop the turn" to "Yes, run it"); a list stops at
//     its ends instead;
//   - answering a stale value: go-to-end moves the highlight without
//     setting the bound value, so whatever read the value before Enter
//     (the unread-diff check) saw the old choice; the value follows the
//     highlight after every message;
//   - taking keys typed ahead: the choosing key answers through huh's
//     commands, and a key that came before they were run (Up, Esc) would
//     change or cancel the answer; keys are dropped until huh has acted.
//
// Every such list is a huh.Select[int] over its options' indexes, so its
// ends are known whatever the options' values (two may be alike).

// choiceList is a single-choice list a form registered: n options, whose
// answer acc keeps.
type choiceList struct {
	n   int
	acc huh.Accessor[int]
}

// addList registers sel, a select over the indexes 0..n-1 whose answer
// acc keeps.
func (b *base) addList(sel *huh.Select[int], n int, acc huh.Accessor[int]) {
	if b.lists == nil {
		b.lists = map[*huh.Select[int]]choiceList{}
	}
	b.lists[sel] = choiceList{n: n, acc: acc}
}

// list is f as a registered list, or nil.
func (b *base) list(f huh.Field) (*huh.Select[int], *choiceList) {
	sel, ok := f.(*huh.Select[int])
	if !ok {
		return nil, nil
	}
	l, ok := b.lists[sel]
	if !ok {
		return nil, nil
	}
	return sel, &l
}

// pastEnd reports whether k would move sel's highlight past an end of
// the list (huh would wrap it round to the other end).
func (b *base) pastEnd(sel *huh.Select[int], l choiceList, k tea.KeyPressMsg) bool {
	i, ok := sel.Hovered()
	if !ok {
		return false
	}
	return (i <= 0 && key.Matches(k, b.keys.Select.Up)) || (i >= l.n-1 && key.Matches(k, b.keys.Select.Down))
}

// sync sets the list's answer to the highlighted choice.
func (l choiceList) sync(sel *huh.Select[int]) {
	if i, ok := sel.Hovered(); ok && i >= 0 && i < l.n && l.acc.Get() != i {
		l.acc.Set(i)
	}
}

func isPaste(msg tea.Msg) bool {
	_, ok := msg.(tea.PasteMsg)
	return ok
}

// indexAccessor binds a select over option indexes to a string answer:
// choosing option i sets *target to values[i]. Before any choice it
// holds the index of *target's value (-1 when none matches: huh then
// highlights the first option and sets it).
type indexAccessor struct {
	values []string
	target *string
	i      int
}

func newIndexAccessor(values []string, target *string) *indexAccessor {
	a := &indexAccessor{values: values, target: target, i: -1}
	for i, v := range values {
		if v == *target {
			a.i = i
			break
		}
	}
	return a
}

// Get implements huh.Accessor: the chosen index.
func (a *indexAccessor) Get() int { return a.i }

// Set implements huh.Accessor: choose option i.
func (a *indexAccessor) Set(i int) {
	if i < 0 || i >= len(a.values) {
		return
	}
	a.i = i
	*a.target = a.values[i]
}
