package commands

import (
	"fmt"
	"strings"

	"tandem/model/act"
	"tandem/model/keys"
)

// /side and /recap ask on a throwaway fork of the thread (act.AskAside →
// backend.Client.Aside): the answer is shown full screen in the pager
// (act.ShowPage) until Esc, and neither the thread's history nor its
// transcript changes. One runs at a time; Esc cuts it (Key).

// aside is the side question running: its seq (an answer of another is
// dropped), what closes to cut it, the command's name and question, and
// for /recap the thread and the turn it summarises up to.
type aside struct {
	seq            int
	cut            chan struct{}
	name, question string
	thread, upTo   string
}

// Recap is what /recap reads of the thread shown: its turns, oldest
// first, and OpenedAt, the newest turn when tandem opened the thread (""
// for none: a new thread).
type Recap struct {
	Turns    []TurnRef
	OpenedAt string
}

// TurnRef is one turn of the thread: its id and the text of the user's
// message that began it ("" when not known).
type TurnRef struct{ ID, Prompt string }

// asideBlocked says why /side or /recap can't run now ("" when it can):
// a watcher or a replay asks nothing of the server, no thread or a
// thread with no turn has nothing to fork, and one runs at a time.
func (c *Commands) asideBlocked() string {
	role := c.env.Role
	switch {
	case role.Watches():
		return "a watcher can't ask a side question — only drivers can"
	case role.Replays():
		return "a replay can't ask a side question: no server answers it"
	case !c.world.Server().Ready:
		return "a side question needs a running app-server"
	case c.world.Server().ThreadID == "":
		return "no thread is open — nothing to ask aside about"
	case len(c.world.Recap().Turns) == 0:
		return "the thread has no turn yet — nothing to ask aside about"
	case c.aside != nil:
		return "a side question is running — " + keys.Display(c.keys.Interrupt) + " cancels it"
	}
	return ""
}

// side is /side QUESTION: the question asked as is on a fork.
func (c *Commands) side(args string) {
	q := strings.TrimSpace(args)
	if q == "" {
		c.refuse("/side QUESTION: ask something on a side fork (the thread is left as it is)")
		return
	}
	c.ask1("side", q, q, "", "")
}

// recap is /recap: the fork summarises the turns since the user last
// looked (the turn the last /recap covered, or the one newest when
// tandem opened the thread).
func (c *Commands) recap(string) {
	r := c.world.Recap()
	thread := c.world.Server().ThreadID
	from := c.looked[thread]
	if from == "" {
		from = r.OpenedAt
	}
	last := r.Turns[len(r.Turns)-1].ID
	if from == last && !c.world.Turn().Running {
		c.out().Notice(act.NoticeInfo, "nothing new since you last looked: no turn since the last /recap")
		return
	}
	c.ask1("recap", "recap", recapPrompt(r.Turns, from), thread, last)
}

// ask1 asks prompt on a side fork for command name (question is what the
// page's title repeats).
func (c *Commands) ask1(name, question, prompt, thread, upTo string) {
	c.seq++
	a := &aside{seq: c.seq, cut: make(chan struct{}), name: name, question: question, thread: thread, upTo: upTo}
	c.aside = a
	c.out().Notice(act.NoticeInfo, "/"+name+": asking on a side fork… ("+keys.Display(c.keys.Interrupt)+" cancels)")
	c.out().Call(act.ToCommands, act.AskAside{Seq: a.seq, Prompt: prompt, Cut: a.cut})
}

// recapPrompt asks for a summary of turns after from ("" or not among
// turns: all of them), naming where it starts by the user's message.
func recapPrompt(turns []TurnRef, from string) string {
	start := 0
	for i, t := range turns {
		if t.ID == from {
			start = i + 1
		}
	}
	since := "this whole conversation"
	if start > 0 {
		n := len(turns) - start
		since = fmt.Sprintf("the last %d turn(s) of this conversation", n)
		if p := firstLine(turns[start].Prompt, 200); p != "" {
			since += fmt.Sprintf(", starting with my message “%s”", p)
		}
		since += " (what came before I have seen)"
	}
	return "Recap " + since + " for me, briefly: what I asked, what you did, which files changed, " +
		"what you found, and what is still open or waiting for me. Use short Markdown bullets."
}

// firstLine is s's first line, cut to n runes ("…" when cut).
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// cutAside cuts the side question running (Esc), if any, and reports
// whether one was.
func (c *Commands) cutAside() bool {
	a := c.aside
	if a == nil {
		return false
	}
	close(a.cut)
	c.aside = nil
	c.out().Notice(act.NoticeInfo, "/"+a.name+" cancelled — the side fork is let go")
	return true
}

// onAside shows a side question's answer in the pager, or why it failed.
func (c *Commands) onAside(msg act.AsideAnswered) {
	a := c.aside
	if a == nil || a.seq != msg.Seq {
		return // cut by Esc, or another's
	}
	c.aside = nil
	c.out().Clear(act.NoticeInfo)
	if msg.Err != nil {
		c.failed(a.name, msg.Err) // a banner; the line back in the composer
		return
	}
	title := "/side: " + firstLine(a.question, 60)
	md := "> **Side question:** " + firstLine(a.question, 500) + "\n\n" + msg.Answer
	if a.name == "recap" {
		c.looked[a.thread] = a.upTo
		title = "/recap"
		md = msg.Answer
	}
	md += "\n\n---\n\n_Asked on a throwaway fork: the thread's history is as it was. " + keys.Display(c.keys.PagerClose) + " close it._"
	c.out().Want(act.ShowPage{Title: title + " (side fork)", Markdown: md})
}
