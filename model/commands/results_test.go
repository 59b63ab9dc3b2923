package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

func ptr[T any](v T) *T { return &v }

// The answers to the commands' calls become banners (an error one when
// the call failed, naming the command), and what they change is asked
// for.
func TestResults(t *testing.T) {
	rpc := &backend.RPCError{Code: -32600, Message: "no rollout found"}
	tests := []struct {
		name   string
		setup  func(w *world)
		msg    tea.Msg
		kind   ui.BannerKind
		banner []string // what the banner says, in order
		want   []act.Intent
	}{
		{name: "renamed", msg: act.ThreadRenamed{Name: "Better"}, banner: []string{"Thread renamed to “Better”"}},
		{name: "rename failed", msg: act.ThreadRenamed{Err: fmt.Errorf("thread/name/set: %w", errors.New("nope"))}, kind: ui.BannerError,
			banner: []string{"/rename: thread/name/set: nope"}},
		{name: "rename refused", msg: act.ThreadRenamed{Err: fmt.Errorf("thread/name/set: %w", rpc)}, kind: ui.BannerError,
			banner: []string{"/rename: no rollout found (-32600)"}},
		{name: "compact", msg: act.CompactStarted{}, banner: []string{"Compacting the thread…"}},
		{name: "compact failed", msg: act.CompactStarted{Err: errors.New("busy")}, kind: ui.BannerError, banner: []string{"/compact: busy"}},
		{name: "no mcp", msg: act.McpServersListed{}, banner: []string{"No MCP servers configured"}},
		{name: "mcp", setup: func(w *world) { w.mcp = map[string]string{"gh": "starting", "fs": "ready"} },
			msg: act.McpServersListed{Servers: []backend.McpServerStatus{
				{Name: "gh", RuntimeStatus: ptr("running"), AuthStatus: "oAuth", Tools: map[string]json.RawMessage{"z": nil, "a": nil}},
				{Name: "fs", AuthStatus: "none", ToolsError: ptr("boom")},
			}},
			banner: []string{"MCP servers (2)", "gh — running, start-up starting, auth oAuth, 2 tools: a, z", "fs — unknown, auth none, 0 tools (error: boom)"}},
		{name: "mcp failed", msg: act.McpServersListed{Err: errors.New("x")}, kind: ui.BannerError, banner: []string{"/mcp: x"}},
		{name: "mcp login", msg: act.McpLoginURL{Name: "gh", URL: "https://auth"}, banner: []string{"Sign in to MCP server gh: open this URL", "https://auth"}},
		{name: "mcp login failed", msg: act.McpLoginURL{Name: "gh", Err: errors.New("x")}, kind: ui.BannerError, banner: []string{"/mcp login: x"}},
		{name: "no hooks", msg: act.HooksListed{}, banner: []string{"No hooks configured"}},
		{name: "hooks", msg: act.HooksListed{Hooks: []backend.HookInfo{
			{EventName: "PreToolUse", HandlerType: "command", Command: "lint", Matcher: ptr("Bash"), SourcePath: "/h.toml", Enabled: true, TrustStatus: "trusted"},
			{EventName: "Stop", HandlerType: "command", SourcePath: "/h.toml", TrustStatus: "untrusted"},
		}}, banner: []string{"Hooks (2)", "PreToolUse (Bash) command lint — trusted (/h.toml)", "Stop command — untrusted, disabled (/h.toml)", "untrusted hooks don't run"}},
		{name: "no skills", msg: act.SkillsListed{}, banner: []string{"No skills", "add one as .codex/skills/NAME/SKILL.md"}},
		{name: "skills", msg: act.SkillsListed{Entry: backend.SkillsListEntry{
			Skills: []backend.Skill{{Name: "deploy", Scope: "repo", Description: "ship\x1b[31m it", Path: "/w/.codex/skills/deploy/SKILL.md"}},
			Errors: []backend.SkillError{{Path: "/w/bad", Message: "no front matter"}}}},
			banner: []string{"Skills (1)", "$deploy (repo, disabled) — ship", "    /w/.codex/skills/deploy/SKILL.md", "not loaded: /w/bad: no front matter", "type $ in the composer"}},
		{name: "skills failed", msg: act.SkillsListed{Err: errors.New("skills/list: x")}, kind: ui.BannerError, banner: []string{"/skills: skills/list: x"}},
		{name: "logged out", msg: act.LoggedOut{Was: &backend.Account{Type: "apiKey"}},
			banner: []string{"Logged out of API key: codex forgot the stored login"},
			want:   []act.Intent{act.Settings{LoggedOut: act.Bool(true)}, act.CheckAccount{}}},
		{name: "logout failed", msg: act.LoggedOut{Err: errors.New("account/logout: x")}, kind: ui.BannerError, banner: []string{"/logout: account/logout: x"}},
		{name: "AGENTS.md exists", msg: act.FileRead{Path: "/w/AGENTS.md"}, banner: []string{"AGENTS.md already exists here", "/w/AGENTS.md"}},
		{name: "AGENTS.md unknown", msg: act.FileRead{Path: "/w/AGENTS.md", Err: errors.New("denied")}, kind: ui.BannerError,
			banner: []string{"/init: could not check for AGENTS.md: denied"}},
	}
	for _, tt := range tests {
		r := newRig(t)
		if tt.setup != nil {
			tt.setup(r.w)
		}
		r.c.Result(tt.msg)
		is := r.take()
		b, text := banner(t, is)
		if b.Kind != tt.kind {
			t.Errorf("%s: banner kind %v, want %v", tt.name, b.Kind, tt.kind)
		}
		at := 0
		for _, want := range tt.banner {
			i := strings.Index(text[at:], want)
			if i < 0 {
				t.Errorf("%s: banner %q lacks %q (in order)", tt.name, text, want)
				break
			}
			at += i + len(want)
		}
		var rest []act.Intent
		for _, i := range is {
			if _, ok := i.(act.Banner); !ok {
				rest = append(rest, i)
			}
		}
		if !reflect.DeepEqual(rest, tt.want) {
			t.Errorf("%s: asked for %#v, want %#v", tt.name, rest, tt.want)
		}
	}
}

// /init sends Codex's prompt as a turn, shown as "/init", once it knows
// AGENTS.md is missing, unless a turn started meanwhile.
func TestInitSendsItsPrompt(t *testing.T) {
	missing := act.FileRead{Path: "/w/AGENTS.md", Err: fmt.Errorf("fs/readFile: %w", fs.ErrNotExist)}
	r := newRig(t)
	r.c.Result(missing)
	if got := r.take(); !reflect.DeepEqual(got, []act.Intent{act.Send{Shown: "/init", Text: act.InitPrompt}}) {
		t.Fatalf("asked for %v", kinds(got))
	}
	if !strings.HasPrefix(act.InitPrompt, "Generate a file named AGENTS.md") {
		t.Errorf("not Codex's /init prompt: %.40q", act.InitPrompt)
	}
	for name, w := range map[string]func(w *world){
		"a turn":    func(w *world) { w.turn.Busy = true },
		"a switch":  func(w *world) { w.turn.Switching = true },
		"no server": func(w *world) { w.server.Ready = false },
	} {
		r := newRig(t)
		w(r.w)
		r.c.Result(missing)
		if is := r.take(); len(only[act.Send](is)) != 0 || !strings.Contains(notice(is), "a turn started meanwhile") {
			t.Errorf("%s: asked for %v", name, kinds(is))
		}
	}
}

// /status shows the settings, the next turn's choices over the thread's,
// and the server's part once read; without a ready server it shows what
// it knows at once.
func TestStatus(t *testing.T) {
	r := newRig(t)
	r.w.status.Next = backend.TurnOptions{Model: "gpt-y", Effort: "high", Sandbox: "read-only"}
	r.w.status.Effort = "low"
	r.w.status.Info.TotalTokens, r.w.status.Info.LastInputTokens, r.w.status.Info.ContextWindow = 9000, 2500, 10000
	r.w.status.Info.Peer = "alice"
	_, is := r.enter("/status")
	if c := calls(t, is); len(c) != 1 || c[0] != (act.ReadStatus{Seq: 1}) || len(only[act.Banner](is)) != 0 {
		t.Fatalf("/status asked for %v", kinds(is))
	}
	r.c.Result(act.StatusRead{Seq: 1, Account: backend.AccountReadResponse{Account: &backend.Account{Type: "apiKey"}},
		Limits: backend.RateLimitSnapshot{Primary: &backend.RateLimitWindow{UsedPercent: 42, WindowDurationMins: ptr[int64](300)}}})
	_, text := banner(t, r.take())
	for _, want := range []string{"Status", "model:      gpt-y (next turn)", "effort:     high (next turn)", "cwd:        ~/w",
		"approvals:  on-request", "sandbox:    read-only (next turn)", "tokens:     9000 used", "context:    75% left of 10000",
		"thread:     th-1", "server:     codex 0.169.0", "peer:       alice", "account:    API key", "limits:     42% used of 300m00s"} {
		if !strings.Contains(text, want) {
			t.Errorf("/status lacks %q:\n%s", want, text)
		}
	}
	r.c.Result(act.StatusRead{Seq: 1}) // said once
	if is := r.take(); len(is) != 0 {
		t.Errorf("a second answer asked for %v", kinds(is))
	}

	// The server's part, each way it can come.
	for _, tt := range []struct {
		read act.StatusRead
		want []string
	}{
		{act.StatusRead{AccountErr: errors.New("down"), LimitsErr: errors.New("x")}, []string{"account:    unknown (down)", "limits:     unavailable"}},
		{act.StatusRead{}, []string{"account:    not needed by this provider", "limits:     none reported"}},
		{act.StatusRead{Account: backend.AccountReadResponse{RequiresOpenaiAuth: true}}, []string{"account:    not logged in"}},
	} {
		r := newRig(t)
		r.enter("/status")
		tt.read.Seq = 1
		r.c.Result(tt.read)
		_, text := banner(t, r.take())
		for _, want := range tt.want {
			if !strings.Contains(text, want) {
				t.Errorf("lacks %q:\n%s", want, text)
			}
		}
	}

	// No ready server: the banner at once, no call.
	r = newRig(t)
	r.w.server = Server{}
	_, is = r.enter("/status")
	_, text = banner(t, is)
	if len(calls(t, is)) != 0 || !strings.Contains(text, "context:    unknown") || strings.Contains(text, "thread:") {
		t.Errorf("offline /status: %v\n%s", kinds(is), text)
	}
}

// /diff without a diff says so.
func TestDiffWithoutOne(t *testing.T) {
	r := newRig(t)
	r.w.diff = " \n"
	_, is := r.enter("/diff")
	if _, text := banner(t, is); !strings.Contains(text, "No diff yet") || len(only[act.Echo](is)) != 0 {
		t.Errorf("asked for %v: %q", kinds(is), text)
	}
}

// /copy copies the last answer by OSC 52 and the native clipboard, and a
// guest's by OSC 52 alone (the host's clipboard is not the guest's).
func TestCopy(t *testing.T) {
	for _, guest := range []bool{false, true} {
		r := newRoleRig(t, act.NewRole(false, true, guest))
		r.w.answer = "the answer"
		r.c.Copy()
		if n := notice(r.out.Intents); n != "copied the last answer" {
			t.Errorf("guest=%v: notice %q", guest, n)
		}
		if len(r.out.Cmds) != 1 {
			t.Fatalf("guest=%v: %d commands", guest, len(r.out.Cmds))
		}
		msg := r.out.Cmds[0]()
		if _, batch := msg.(tea.BatchMsg); batch == guest {
			t.Errorf("guest=%v: a native clipboard write %v (%T)", guest, batch, msg)
		}
		r.take()
	}
}

// /copy puts the answer on the clipboard as the screen shows it: an
// escape sequence, a control, a bidi control or an invisible character
// in the answer is its visible marker there, so a paste can't end a
// terminal's bracketed paste ("\x1b[201~") and run what follows, set a
// title or reorder the line. Both clipboards get the same text; "\n"
// and tabs are kept, "\r\n" is a line break.
func TestCopyIsWhatTheScreenShows(t *testing.T) {
	tests := []struct {
		name, answer string
		want         string // the copied text; "" when it is the answer itself
	}{
		{"plain text unchanged", "Run:\n\n```\nls -la\n```\n\tdone ✓ 日本 👩\u200d💻", ""},
		{"bracketed paste end", "```\nls\n```\n\x1b[201~touch /tmp/PWNED\n", "```\nls\n```\n␛[201~touch /tmp/PWNED\n"},
		{"osc 52 clipboard write", "a\x1b]52;c;cm0gLXJmIH4=\x07b", "a␛]52;c;cm0gLXJmIH4=␇b"},
		{"osc title st", "\x1b]0;pwned\x1b\\x", "␛]0;pwned␛\\x"},
		{"dcs", "\x1bP1$qm\x1b\\after", "␛P1$qm␛\\after"},
		{"sgr shown as on the screen", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"c1 csi", "a\u009b201~b", "a<U+009B>201~b"},
		{"raw c1 byte", "a\x9bb", "a\ufffdb"},
		{"lone cr", "echo safe\rrm -rf ~", "echo safe␍rm -rf ~"},
		{"crlf is a line break", "a\r\nb", "a\nb"},
		{"nul bel del", "a\x00b\x07c\x7fd", "a␀b␇c␡d"},
		{"bidi override", "file\u202etxt.exe", "file<U+202E>txt.exe"},
		{"bidi isolate", "\u2066a\u2069", "<U+2066>a<U+2069>"},
		{"zero width space", "rm\u200b -rf", "rm<U+200B> -rf"},
	}
	for _, tt := range tests {
		for _, guest := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s guest=%v", tt.name, guest), func(t *testing.T) {
				var native []string
				r := newRoleRig(t, act.NewRole(false, true, guest))
				r.c.opts.Clipboard = func(s string) error { native = append(native, s); return nil }
				r.w.answer = tt.answer
				r.c.Copy()
				if len(r.out.Cmds) != 1 {
					t.Fatalf("%d commands", len(r.out.Cmds))
				}
				osc52 := clipboardWrites(t, r.out.Cmds[0])
				want := tt.want
				if want == "" {
					want = tt.answer
				}
				if len(osc52) != 1 || osc52[0] != want {
					t.Errorf("OSC 52 got %q, want %q", osc52, want)
				}
				if wantNative := !guest; len(native) != 1 && wantNative || len(native) > 0 && (!wantNative || native[0] != want) {
					t.Errorf("native clipboard got %q, want %q (guest %v: none)", native, want, guest)
				}
				for _, got := range append(osc52, native...) {
					if i := strings.IndexFunc(got, unsafeInClipboard); i >= 0 || !utf8.ValidString(got) {
						t.Errorf("%q keeps a raw control (at %d) or invalid UTF-8", got, i)
					}
				}
			})
		}
	}
}

// unsafeInClipboard reports a rune a clipboard must not hold: a C0
// control but "\n" and tab, DEL, a C1 control, a bidi control, a zero
// width space.
func unsafeInClipboard(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200b
}

// clipboardWrites runs cmd (a batch too) and returns the text of each
// OSC 52 clipboard write it asks for (tea.SetClipboard's message is
// unexported: a string kind named setClipboardMsg).
func clipboardWrites(t *testing.T, cmd tea.Cmd) []string {
	t.Helper()
	var out []string
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, clipboardWrites(t, c)...)
		}
	case nil:
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.String && strings.HasSuffix(v.Type().Name(), "setClipboardMsg") {
			out = append(out, v.String())
		}
	}
	return out
}

func TestParseGoal(t *testing.T) {
	tests := []struct{ args, action, objective string }{
		{"", "show", ""},
		{"   ", "show", ""},
		{"clear", "clear", ""},
		{" CLEAR ", "clear", ""},
		{"make the tests pass", "set", "make the tests pass"},
		{"clear the cache", "set", "clear the cache"},
		{"  ship 目標 ✨ ", "set", "ship 目標 ✨"},
	}
	for _, tt := range tests {
		action, objective := parseGoal(tt.args)
		if action != tt.action || objective != tt.objective {
			t.Errorf("parseGoal(%q) = %q, %q; want %q, %q", tt.args, action, objective, tt.action, tt.objective)
		}
	}
}
