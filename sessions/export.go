package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/internal/lib/shellwords"
	"tandem/internal/lib/termsafe"
)

// ExportMarkdown writes rec as Markdown: the user's prompts, the agent's
// messages, commands with their output and exit code, file diffs, plans,
// and the questions asked with the answers given. Everything written passes
// through the redactor (the transcript is redacted already; this also
// covers transcripts written by other tools).
func ExportMarkdown(w io.Writer, rec *Recording) error {
	var b strings.Builder
	h := rec.Header
	b.WriteString("# tandem session\n\n")
	var meta []string
	if !h.Start.IsZero() {
		meta = append(meta, "recorded "+h.Start.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if h.Cwd != "" {
		meta = append(meta, "in `"+h.Cwd+"`")
	}
	if h.Codex != "" {
		meta = append(meta, "codex "+h.Codex)
	}
	if len(meta) > 0 {
		b.WriteString("_" + strings.Join(meta, " · ") + "_\n\n")
	}
	// The command center's other lanes (lane.go) each get a section of
	// their own after the session's own thread, their turns numbered
	// from 1.
	lanes := rec.Lanes()
	laneOf := laneThreads(lanes)
	writeThread(&b, rec, func(th string) bool { return !laneOf[th] }, true)
	for i, l := range lanes {
		title := l.Title
		if title == "" {
			title = l.Thread
		}
		fmt.Fprintf(&b, "---\n\n# Thread %d: %s\n\n", i+2, mdEscape(oneLine(title)))
		writeThread(&b, rec, func(th string) bool { return th == l.Thread }, false)
	}
	// Nothing in the export may drive the terminal it is shown on.
	_, err := io.WriteString(w, termsafe.Plain(redact.String(b.String())))
	return err
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeThread writes the turns of one thread of rec: the entries of the
// threads keep accepts. own is the session's own thread, which also gets
// what names no thread (a rewind, a `!command`, an interrupt or answer
// noted by serve --record).
func writeThread(b *strings.Builder, rec *Recording, keep func(thread string) bool, own bool) {
	questions := map[string]backend.ToolCallParams{} // server request id → call
	turn := 0
	turnNo := map[string]int{} // turn id → its number here
	// An answer cut short by a steer or an interrupt may never complete:
	// what streamed of it is written when the steer is sent or the turn
	// ends, and a later completion adds only the rest.
	streamed := map[string]*strings.Builder{} // agentMessage id → text streamed so far
	var order []string                        // their ids, first delta first
	written := map[string]string{}            // id → text already written
	flushStreamed := func() {
		for _, id := range order {
			if sb := streamed[id]; sb != nil && strings.TrimSpace(sb.String()) != "" {
				b.WriteString(strings.TrimRight(sb.String(), " \t\n") + " _(cut off)_\n\n")
				written[id] = sb.String()
			}
			delete(streamed, id)
		}
		order = order[:0]
	}
	var authors []Author // noted by `serve --record`, not yet matched to a prompt
	for _, e := range rec.Entries {
		m, ok := e.Message()
		if !ok {
			continue
		}
		switch {
		case e.Dir == backend.Sent && m.Kind() == "notification" && m.Method == authorMethod:
			var a Author
			switch {
			case json.Unmarshal(m.Params, &a) != nil || a.Who == "":
			case a.Did != "" && !own: // names no thread: the own thread's
			case a.Did != "": // an interrupt or an answer, said where it happened
				flushStreamed()
				b.WriteString("_" + mdEscape(a.Who) + " " + mdEscape(a.Did) + "._\n\n")
			default:
				authors = append(authors, a)
			}
		case e.Dir == backend.Sent && m.Kind() == "request":
			call, err := backend.DecodeCall(m.Method, m.Params)
			if err != nil {
				continue
			}
			switch c := call.(type) {
			case backend.ShellCall:
				if !own {
					continue
				}
				// A driver's `!command` in a shared session: who ran it
				// (the command itself is written as its item completes).
				var who string
				if who, authors = takeAuthor(authors, "!"+c.Command); who != "" {
					b.WriteString("_" + mdEscape(who) + " wrote:_\n\n" + quote("!"+c.Command) + "\n\n")
				}
			case backend.ThreadOpenCall:
				if own && c.Fork && c.BeforeTurn != "" {
					// A rewind: the turns from BeforeTurn on stay on the
					// old thread; the branch goes on from the turn before.
					flushStreamed()
					k, ok := turnNo[c.BeforeTurn]
					if !ok {
						k = turn + 1
					}
					fmt.Fprintf(b, "---\n\n**Rewound** to before turn %d: the conversation goes on from there on a new branch (a fork of the thread); turns %d–%d above stay on the original thread.\n\n", k, k, turn)
					turn = k - 1
				}
			case backend.PromptCall:
				if !keep(c.Thread) {
					continue
				}
				var who string
				who, authors = takeAuthor(authors, strings.Join(c.Texts, "\n"))
				if !c.Steer {
					turn++
					fmt.Fprintf(b, "## Turn %d\n\n", turn)
				} else {
					flushStreamed()
					b.WriteString("_Sent during the turn:_\n\n")
				}
				if who != "" {
					b.WriteString("_" + mdEscape(who) + " wrote:_\n\n")
				}
				for _, t := range c.Texts {
					b.WriteString(quote(t) + "\n\n")
				}
			}
		case e.Dir == backend.Received && m.Kind() == "request":
			req, _ := backend.DecodeRequest(m.Method, m.ID, m.Params, nil)
			if req == nil || !keep(req.Thread()) {
				continue
			}
			if q, ok := req.(*backend.ToolCallRequest); ok && q.Params.Tool == backend.AskUserQuestionName {
				questions[m.ID.String()] = q.Params
			}
		case e.Dir == backend.Sent && m.Kind() == "response":
			p, ok := questions[m.ID.String()]
			if !ok {
				continue
			}
			delete(questions, m.ID.String())
			writeQuestion(b, p, m.Result)
		case e.Dir == backend.Received && m.Kind() == "notification":
			ev, _ := backend.DecodeNotification(m.Method, m.Params)
			if ev == nil || !keep(ev.Thread()) {
				continue
			}
			switch ev := ev.(type) {
			case backend.AgentMessageDeltaEvent:
				if ev.ItemID != "" {
					if streamed[ev.ItemID] == nil {
						streamed[ev.ItemID] = &strings.Builder{}
						order = append(order, ev.ItemID)
					}
					streamed[ev.ItemID].WriteString(ev.Delta)
				}
			case backend.ItemCompletedEvent:
				it := ev.Item
				delete(streamed, it.ID)
				if done, ok := written[it.ID]; ok && it.Type == "agentMessage" {
					it.Text = strings.TrimPrefix(it.Text, done) // the rest only
				}
				writeItem(b, it)
			case backend.PlanUpdatedEvent:
				writePlan(b, ev)
			case backend.TurnStartedEvent:
				turnNo[ev.Turn.ID] = turn
			case backend.TurnCompletedEvent:
				flushStreamed() // an answer cut short by an interrupt
				if ev.Turn.Status != backend.TurnCompleted && ev.Turn.Status != "" {
					msg := "_Turn " + string(ev.Turn.Status)
					if ev.Turn.Error != nil && ev.Turn.Error.Message != "" {
						msg += ": " + ev.Turn.Error.Message
					}
					b.WriteString(msg + "_\n\n")
				}
			}
		}
	}
}

func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

// fence returns a code fence longer than any backtick run in s.
func fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f
}

func codeBlock(b *strings.Builder, lang, s string) {
	f := fence(s)
	b.WriteString(f + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n\n")
}

func writeItem(b *strings.Builder, it backend.Item) {
	switch it.Type {
	case "agentMessage":
		if strings.TrimSpace(it.Text) != "" {
			b.WriteString(strings.TrimRight(it.Text, "\n") + "\n\n")
		}
	case "reasoning":
		if len(it.Summary) > 0 {
			b.WriteString("_Reasoning: " + strings.Join(it.Summary, " ") + "_\n\n")
		}
	case "commandExecution":
		status := it.Status
		if it.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *it.ExitCode)
		}
		fmt.Fprintf(b, "**Command** `%s` (%s)\n\n", strings.ReplaceAll(shellwords.Display(it.Command), "`", "'"), status)
		if it.AggregatedOutput != nil && strings.TrimSpace(*it.AggregatedOutput) != "" {
			codeBlock(b, "", *it.AggregatedOutput)
		}
	case "fileChange":
		for _, ch := range it.Changes {
			fmt.Fprintf(b, "**File %s** `%s` (%s)\n\n", ch.Kind.Type, ch.Path, it.Status)
			if ch.Diff != "" {
				codeBlock(b, "diff", ch.Diff)
			}
		}
	case "plan":
		if it.Text != "" {
			b.WriteString("**Plan**\n\n" + quote(it.Text) + "\n\n")
		}
	case "mcpToolCall", "dynamicToolCall":
		if it.Tool == backend.AskUserQuestionName {
			return // written with its answer
		}
		name := it.Tool
		if it.Server != "" {
			name = it.Server + "." + it.Tool
		}
		fmt.Fprintf(b, "**Tool** `%s` (%s)\n\n", name, it.Status)
	case "webSearch":
		fmt.Fprintf(b, "**Searched the web** for %q\n\n", it.Query)
	}
}

func writePlan(b *strings.Builder, ev backend.PlanUpdatedEvent) {
	b.WriteString("**Plan**")
	if ev.Explanation != nil && *ev.Explanation != "" {
		b.WriteString(": " + *ev.Explanation)
	}
	b.WriteString("\n\n")
	for _, s := range ev.Plan {
		box := "[ ]"
		switch s.Status {
		case "completed":
			box = "[x]"
		case "inProgress", "in_progress":
			box = "[~]"
		}
		fmt.Fprintf(b, "- %s %s\n", box, s.Step)
	}
	b.WriteString("\n")
}

// writeQuestion writes an ask_user_question call with the answer the
// client sent (`item/tool/call` response).
func writeQuestion(b *strings.Builder, p backend.ToolCallParams, result json.RawMessage) {
	args, err := backend.ParseAskUserQuestion(p.Arguments)
	if err != nil {
		return
	}
	var resp backend.DynamicToolCallResponse
	_ = json.Unmarshal(result, &resp)
	var text strings.Builder
	for _, c := range resp.ContentItems {
		text.WriteString(c.Text)
	}
	answers := map[string]any{}
	_ = json.Unmarshal([]byte(text.String()), &answers)

	title := args.Title
	if title == "" {
		title = "Question"
	}
	b.WriteString("**" + title + "**")
	if args.Description != "" {
		b.WriteString(" — " + args.Description)
	}
	b.WriteString("\n\n")
	for _, q := range args.Questions {
		b.WriteString("- " + q.Question + "\n")
		switch {
		case !resp.Success:
			b.WriteString("  - _not answered: " + text.String() + "_\n")
		case answers[q.ID] != nil:
			labels := map[string]string{}
			for _, o := range q.Options {
				if o.Value != "" {
					labels[o.Value] = o.Label
				}
			}
			b.WriteString("  - **" + answerText(answers[q.ID], labels) + "**\n")
		default:
			b.WriteString("  - _no answer_\n")
		}
	}
	b.WriteString("\n")
}

// answerText renders an answer; option values are shown by their label.
func answerText(v any, labels map[string]string) string {
	switch x := v.(type) {
	case string:
		if l, ok := labels[x]; ok {
			return l
		}
		return x
	case []any:
		var parts []string
		for _, p := range x {
			parts = append(parts, answerText(p, labels))
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// takeAuthor finds who sent text (the first noted Author with that text)
// and returns the notes left; "" when nobody was noted.
func takeAuthor(authors []Author, text string) (string, []Author) {
	for i, a := range authors {
		if a.Text == text {
			return a.Who, append(authors[:i:i], authors[i+1:]...)
		}
	}
	return "", authors
}

// mdEscape escapes the Markdown emphasis, code and link characters of a
// name shown in running text.
func mdEscape(s string) string { return mdEscaper.Replace(s) }

var mdEscaper = strings.NewReplacer(`\`, `\\`, "_", `\_`, "*", `\*`, "`", "\\`", "[", `\[`, "]", `\]`)
