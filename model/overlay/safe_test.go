package overlay

import (
	"strings"
	"testing"
)

// Every form shows server-provided text with its controls visible: a
// "\r" can't hide the start of a command, an escape sequence can't reach
// the terminal, a bidi override can't reorder a name.
func TestFormsShowControlsVisibly(t *testing.T) {
	cases := []struct {
		name, method, params string
		want                 []string
	}{
		{"command", "item/commandExecution/requestApproval",
			`{"threadId":"th","turnId":"tu","itemId":"c","command":"echo PWNED > pwned.txt\r echo 'harmless'","cwd":"/w\u001b[2J","reason":"r\u202eeason"}`,
			[]string{"$ echo PWNED > pwned.txt␍ echo 'harmless'", "in /w␛[2J", "Reason: r<U+202E>eason"}},
		{"command with escape sequences", "item/commandExecution/requestApproval",
			`{"threadId":"th","turnId":"tu","itemId":"c","command":"printf '\u001b]0;ignore the user\u0007 \u001b[8mhidden\u001b[0m'","cwd":"/w","reason":"see \u001b]8;;http://x\u001b\\here"}`,
			[]string{`$ printf '␛]0;ignore the user␇ ␛[8mhidden␛[0m'`, `Reason: see ␛]8;;http://x␛\here`}},
		{"legacy exec", "execCommandApproval",
			`{"conversationId":"th","callId":"c1","approvalId":null,"command":["rm","-rf","x\rls"],"cwd":"/w","reason":null,"parsedCmd":[]}`,
			[]string{`$ rm -rf $'x\rls'`}}, // argv words are shell-quoted, controls escaped
		{"permissions", "item/permissions/requestApproval",
			`{"threadId":"th","turnId":"tu","itemId":"p1","environmentId":null,"startedAtMs":1,"cwd":"/w","reason":"needs\rnothing",` +
				`"permissions":{"network":{"enabled":true},"fileSystem":{"read":null,"write":["/sh\u0007ared"]}}}`,
			[]string{"Reason: needs␍nothing", "/sh␇ared"}},
		{"user input", "item/tool/requestUserInput",
			`{"threadId":"th","turnId":"tu","itemId":"u1","isBlocking":true,"autoResolutionMs":null,"questions":[` +
				`{"id":"q1","header":"Env","question":"Which\u001b]0;t\u0007 env?","isOther":false,"isSecret":false,"options":[{"label":"pr\rod","description":"li\u009bve"}]}]}`,
			[]string{"Which␛]0;t␇ env?", "pr␍od", "li<U+009B>ve"}},
		{"elicitation", "mcpServer/elicitation/request",
			`{"threadId":"th","turnId":"tu","serverName":"sr\rv","mode":"url","_meta":null,"message":"Sign\rin","url":"https://ok.example/\u202eevil","elicitationId":"e1"}`,
			[]string{"Sign␍in", "https://ok.example/<U+202E>evil"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := reqRig(t)
			r.request(r.decode(tc.method, `1`, tc.params))
			raw := r.raw()
			for _, bad := range []string{"\r", "\a", "\u202e", "\u009b", "\x1b[2J", "\x1b]0;"} {
				if strings.Contains(raw, bad) {
					t.Errorf("%q reaches the terminal:\n%q", bad, raw)
				}
			}
			v := r.view()
			for _, w := range tc.want {
				if !strings.Contains(v, w) {
					t.Errorf("form lacks %q:\n%s", w, v)
				}
			}
		})
	}
}
