package keys

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
)

// The keymap as people read it: /help, docs/KEYS.md and the README's table.

// Group is the actions of one scope, as /help and docs/KEYS.md list them.
type Group struct {
	Scope   Scope
	Actions []Action
}

// Groups returns the map's actions by scope, in scope order.
func (m *Map) Groups() []Group {
	var out []Group
	for _, s := range scopes() {
		g := Group{Scope: s}
		for _, a := range m.actions {
			if a.Scope == s {
				g.Actions = append(g.Actions, a)
			}
		}
		out = append(out, g)
	}
	return out
}

// Display writes a binding's keys for people: "Ctrl+T", "Shift+Enter,
// Ctrl+J", "PgUp".
func Display(b key.Binding) string {
	ks := b.Keys()
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = displayKey(k)
	}
	return strings.Join(out, ", ")
}

var keyNames = map[string]string{
	"pgup": "PgUp", "pgdown": "PgDn", "esc": "Esc", "enter": "Enter", "tab": "Tab",
	"backspace": "Backspace", "delete": "Delete", "space": "Space", "up": "↑", "down": "↓",
	"left": "←", "right": "→", "home": "Home", "end": "End",
}

func displayKey(k string) string {
	if utf8.RuneCountInString(k) == 1 { // a character key as is: q, G, +, −
		return k
	}
	parts := strings.Split(k, "+")
	for i, p := range parts {
		switch n, ok := keyNames[p]; {
		case ok:
			parts[i] = n
		case utf8.RuneCountInString(p) == 1 && i > 0: // a letter after a modifier: Ctrl+T
			parts[i] = strings.ToUpper(p)
		case len(p) > 1 && p[0] == 'f' && p[1] >= '0' && p[1] <= '9':
			parts[i] = strings.ToUpper(p)
		case utf8.RuneCountInString(p) > 1:
			r, size := utf8.DecodeRuneInString(p)
			parts[i] = strings.ToUpper(string(r)) + p[size:]
		}
	}
	return strings.Join(parts, "+")
}

// HelpLines are /help's lines for the actions of scope s: each binding's
// keys, padded to col runes, then what it does.
func (m *Map) HelpLines(s Scope, col int) []string {
	var out []string
	for _, a := range m.actions {
		if a.Scope != s {
			continue
		}
		k := a.Binding.Help().Key
		out = append(out, k+strings.Repeat(" ", max(1, col-utf8.RuneCountInString(k)))+a.Binding.Help().Desc)
	}
	return out
}

// Table is the Markdown table of scope s's actions (docs/KEYS.md, the
// README): the keys as people write them, the action's config name and
// what it does.
func (m *Map) Table(s Scope) string {
	var b strings.Builder
	b.WriteString("| keys | action | does |\n|---|---|---|\n")
	for _, a := range m.actions {
		if a.Scope == s {
			fmt.Fprintf(&b, "| %s | `%s` | %s |\n", mdCell(Display(*a.Binding)), a.Name, mdCell(a.Binding.Help().Desc))
		}
	}
	return b.String()
}

// mdCell escapes what a Markdown table cell can't hold as is.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// Markdown is docs/KEYS.md's keymap part: a table per scope, headed by
// what the scope is.
func (m *Map) Markdown() string {
	var b strings.Builder
	for _, s := range scopes() {
		fmt.Fprintf(&b, "### %s%s\n\n%s\n", strings.ToUpper(s.String()[:1]), s.String()[1:], m.Table(s))
	}
	return b.String()
}

// Short writes a binding's first n keys for people, joined by "/", as a
// footer names them: Short(PagerClose, 2) is "q/Esc"; "" for a binding
// with no key.
func Short(b key.Binding, n int) string {
	ks := b.Keys()
	out := make([]string, 0, n)
	for _, k := range ks[:min(n, len(ks))] {
		out = append(out, displayKey(k))
	}
	return strings.Join(out, "/")
}
