package model

import (
	"strings"

	"tandem/backend"
	"tandem/internal/hub"
	"tandem/ui"
)

// In a shared session (`tandem serve`) the transcript says which driver
// did what: the pairing server logs a hub.ActionEvent just before a
// driver's prompt, steer, !command or interrupt goes out, and the hub
// names the driver who answered a server request in the
// backend.RequestResolvedEvent it logs.

// authorNote is a driver's prompt waiting for its user message.
type authorNote struct{ who, text string }

// maxAuthors bounds the prompts waiting for their messages: one that
// never comes back (a refused turn) must not hold the list for good.
const maxAuthors = 32

// noteAuthor remembers who sent text.
func (v *transcriptView) noteAuthor(who, text string) {
	v.authors = append(v.authors, authorNote{who, strings.TrimSpace(text)})
	if len(v.authors) > maxAuthors {
		v.authors = v.authors[len(v.authors)-maxAuthors:]
	}
}

// takeAuthor returns who sent the message text (the oldest waiting prompt
// with that text) and forgets it; "" when nobody is noted for it.
func (v *transcriptView) takeAuthor(text string) string {
	text = strings.TrimSpace(text)
	for i, a := range v.authors {
		if a.text == text {
			v.authors = append(v.authors[:i:i], v.authors[i+1:]...)
			return a.who
		}
	}
	return ""
}

// onAction folds a driver's action: a prompt's author waits for its
// message; an interrupt is said at once.
func (m *Model) onAction(e hub.ActionEvent) {
	m.withMain(func() {
		switch e.Kind {
		case hub.ActionPrompt:
			if strings.HasPrefix(e.Text, "!") {
				// A !command is drawn as the command it runs.
				cmd, more, _ := strings.Cut(e.Text, "\n")
				if more != "" {
					cmd += " …" // one line: the rest can't pose as another notice
				}
				m.banner(ui.BannerQuiet, e.Who+" ran "+cmd, nil)
				return
			}
			m.view.noteAuthor(e.Who, e.Text)
		case hub.ActionInterrupt:
			m.banner(ui.BannerQuiet, e.Who+" interrupted the turn", nil)
		}
	})
}

// answeredBy says, in a shared session, which driver answered a request
// and what they decided ("alice approved the command").
func (m *Model) answeredBy(e backend.RequestResolvedEvent) {
	if e.By == "" {
		return
	}
	m.withMain(func() {
		m.banner(ui.BannerQuiet, e.By+" "+e.Answer+" "+backend.DescribeRequest(e.Method), nil)
	})
}
