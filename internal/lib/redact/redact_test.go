package redact

import (
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

const (
	skKey   = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	projKey = "sk-proj-Abc123_def456-GHI789jkl012MNO345pqr678"
)

func TestString(t *testing.T) {
	cases := []redactCase{
		// Authorization headers and Bearer tokens.
		{"auth header bearer", "Authorization: Bearer abc.def.ghi123", "Authorization: Bearer [REDACTED]"},
		{"auth header lower", "authorization: bearer eyJhbGciOiJIUzI1NiJ9.x.y", "authorization: bearer [REDACTED]"},
		{"auth header basic", "Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED]"},
		{"auth json", `{"Authorization": "Bearer tok_123456789"}`, `{"Authorization": "Bearer [REDACTED]"}`},
		{"auth header with empty value ending a JSON string", `{"delta":"Authorization: ","x":1}`, `{"delta":"Authorization: ","x":1}`},
		{"auth header inside a JSON string", `{"delta":"Authorization: Bearer abcdef123456","x":1}`, `{"delta":"Authorization: Bearer [REDACTED]","x":1}`},
		{"auth curl", `curl -H "Authorization: Bearer abc123def456" https://x`, `curl -H "Authorization: Bearer [REDACTED]" https://x`},
		{"bare bearer", "sent Bearer 9f8e7d6c5b4a3210 upstream", "sent Bearer [REDACTED] upstream"},
		// JSON form.
		{"json api_key", `{"api_key": "hunter2hunter2"}`, `{"api_key": "[REDACTED]"}`},
		{"json access_token", `{"access_token":"ya29.a0AfH6"}`, `{"access_token":"[REDACTED]"}`},
		{"json client_secret", `{"client_id":"abc","client_secret":"s3cr3t value"}`, `{"client_id":"abc","client_secret":"[REDACTED]"}`},
		{"json password number", `{"password": 123456}`, `{"password": "[REDACTED]"}`},
		{"json escaped", `{"arguments":"{\"api_key\":\"abc123\",\"n\":1}"}`, `{"arguments":"{\"api_key\":\"[REDACTED]\",\"n\":1}"}`},
		{"json escaped quote in value", `{"password":"a\"b c"}`, `{"password":"[REDACTED]"}`},
		{"json refresh token camel", `{"refreshToken": "rt-1-abc"}`, `{"refreshToken": "[REDACTED]"}`},
		{"json null kept", `{"api_key": null}`, `{"api_key": null}`},
		// env / config form.
		{"env openai", "OPENAI_API_KEY=abc123 codex", "OPENAI_API_KEY=[REDACTED] codex"},
		{"env export", "export GITHUB_TOKEN=ghp_abcdef123456", "export GITHUB_TOKEN=[REDACTED]"},
		{"env password", "DB_PASSWORD='p a s s'", "DB_PASSWORD='[REDACTED]'"},
		{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED]"},
		{"yaml colon", "secret: topsecretvalue", "secret: [REDACTED]"},
		{"url query", "GET /cb?access_token=abc123&state=x", "GET /cb?access_token=[REDACTED]&state=x"},
		// Where an unquoted value ends: '&' and ';' end it only before the
		// next name=value pair; a config or header line starting with the
		// key is redacted to its end.
		{"ampersand inside a value", "password=Tr0ub4dor&3xyz", "password=[REDACTED]"},
		{"ampersand value mid-line", "login password=Tr0ub4dor&3xyz now", "login password=[REDACTED] now"},
		{"url query two pairs", "https://x/cb?code=1&access_token=abc&state=x&n=2", "https://x/cb?code=1&access_token=[REDACTED]&state=x&n=2"},
		{"url query array pair", "?token=abc&ids[]=3", "?token=[REDACTED]&ids[]=3"},
		{"connection string", "Password=abc;User=x", "Password=[REDACTED];User=x"},
		{"connection string inside", "Server=db;Password=p;w0rd;Database=app", "Server=db;Password=[REDACTED];Database=app"},
		{"semicolon then space ends", "export TOKEN=abc; echo ok", "export TOKEN=[REDACTED]; echo ok"},
		{"shell and-and ends", "API_KEY=abc&&make", "API_KEY=[REDACTED]&&make"},
		{"yaml value with spaces", "password: correct horse battery staple", "password: [REDACTED]"},
		{"yaml indented line", "db:\n  password: correct horse battery staple  \n  user: bob", "db:\n  password: [REDACTED]  \n  user: bob"},
		{"yaml list item", "- api_key: two words", "- api_key: [REDACTED]"},
		{"config spaced equals", "[db]\nsecret = open sesame\r\nport = 5432", "[db]\nsecret = [REDACTED]\r\nport = 5432"},
		{"commented config", "# token = x y z\nnext", "# token = [REDACTED]\nnext"},
		{"export spaced equals", "export TOKEN = a b", "export TOKEN = [REDACTED]"},
		{"http header line", "> X-Api-Key: abc def\n< HTTP/1.1 200", "> X-Api-Key: [REDACTED]\n< HTTP/1.1 200"},
		{"ansi before line start key", "\x1b[1mpassword: a b c\x1b[0m\n", "\x1b[1mpassword: [REDACTED]\x1b[0m\n"},
		{"line start quoted value", `password: "a b" c`, `password: "[REDACTED]" c`},
		{"line start null kept", "password: null", "password: null"},
		{"env line ends at space", "OPENAI_API_KEY=abc123 codex --model x", "OPENAI_API_KEY=[REDACTED] codex --model x"},
		{"json text line start", `{"out":"x\npassword: correct horse\nnext"}`, `{"out":"x\npassword: [REDACTED]\nnext"}`},
		{"json text last line", `{"out":"x\n  secret: a \"b\" c","n":1}`, `{"out":"x\n  secret: [REDACTED]","n":1}`},
		{"json text ansi line start", `{"o":"\n\u001b[1mtoken: a b\u001b[0m\n"}`, `{"o":"\n\u001b[1mtoken: [REDACTED]\u001b[0m\n"}`},
		{"json text tab indent", `"a\n\tpassword: x y\r\n"`, `"a\n\tpassword: [REDACTED]\r\n"`},
		// A quoted value ends at its closing quote, or, left open, at the
		// end of its line: a raw newline or carriage return, or a JSON or
		// C escape of one (\n, \r, however many backslashes write it), so
		// the text after an unclosed quote is never swallowed.
		{"closed quote with spaces", "set password='a b c' and go", "set password='[REDACTED]' and go"},
		{"closed double quote with spaces", `set password="a b c" and go`, `set password="[REDACTED]" and go`},
		{"unclosed quote ends at a newline", "Step 1: set password='abc\n\nStep 2 go\n\nThat's all.", "Step 1: set password='[REDACTED]\n\nStep 2 go\n\nThat's all."},
		{"unclosed quote ends at a carriage return", "token='abc\r\nit's done", "token='[REDACTED]\r\nit's done"},
		{"unclosed quote ends at a C escape", `printf "password='abc\nThat's all"`, `printf "password='[REDACTED]\nThat's all"`},
		{"unclosed quote in a JSON string", `{"text":"Step 1: set password='abc\n\nStep 2 …\n\nStep 3 …\n\nThat's all."}`, `{"text":"Step 1: set password='[REDACTED]\n\nStep 2 …\n\nStep 3 …\n\nThat's all."}`},
		{"unclosed quote in a JSON string, \\r\\n", `{"text":"token='abc\r\nThat's all"}`, `{"text":"token='[REDACTED]\r\nThat's all"}`},
		{"unclosed quote in encoded JSON text", `{"out":"{\"t\":\"password='abc\\n\\nThat's all\"}"}`, `{"out":"{\"t\":\"password='[REDACTED]\\n\\nThat's all\"}"}`},
		{"unclosed escaped double quote", `{"text":"set password=\"abc\n\nThat's \"all\"."}`, `{"text":"set password=\"[REDACTED]\n\nThat's \"all\"."}`},
		{"closed quote in a JSON string", `{"text":"set password='a b c' then\nThat's all"}`, `{"text":"set password='[REDACTED]' then\nThat's all"}`},
		{"json value keeps its own escapes", `{"password":"abc\ndef","n":1}`, `{"password":"[REDACTED]","n":1}`},
		{"encoded json value keeps its own escapes", `{"a":"{\"password\":\"abc\\ndef\"}"}`, `{"a":"{\"password\":\"[REDACTED]\"}"}`},
		// A single-quoted value goes on through an escaped quote: YAML's
		// '' and the POSIX shell's '\'' (close, escaped quote, reopen).
		{"yaml doubled quote", "password: 'Tr0ub''4dor'", "password: '[REDACTED]'"},
		{"yaml doubled quotes, then text", "db: {password: 'a''b''c', user: x}", "db: {password: '[REDACTED]', user: x}"},
		{"shell re-quote", "API_TOKEN='abc'\\''def' make", "API_TOKEN='[REDACTED]' make"},
		{"shell re-quote twice", "export API_TOKEN='a'\\''b'\\''c'", "export API_TOKEN='[REDACTED]'"},
		{"shell re-quote in JSON", `{"command":"API_TOKEN='abc'\\''def' make"}`, `{"command":"API_TOKEN='[REDACTED]' make"}`},
		{"shell re-quote of a whole word", "ssh host 'API_TOKEN=abc'\\''def' ls", "ssh host 'API_TOKEN=[REDACTED]' ls"},
		{"empty quotes then text", "password='' and more", "password='' and more"},
		{"quote closes before another quoted word", "password='abc' 'def'", "password='[REDACTED]' 'def'"},
		// Common secret names: *_PASS, *_PWD (not PWD or OLDPWD, which
		// are directories), *_PASSPHRASE, encryption, signing and master
		// keys.
		{"db pass", "DB_PASS=hunter2 ./run", "DB_PASS=[REDACTED] ./run"},
		{"mysql pwd", "export MYSQL_PWD=hunter2", "export MYSQL_PWD=[REDACTED]"},
		{"camel pass", `{"dbPass":"hunter2"}`, `{"dbPass":"[REDACTED]"}`},
		{"camel pwd after capitals", "DBPwd: hunter2", "DBPwd: [REDACTED]"},
		{"cli pass", "tool --db-pass hunter2 run", "tool --db-pass [REDACTED] run"},
		{"passphrase", "GPG_PASSPHRASE='a b'", "GPG_PASSPHRASE='[REDACTED]'"},
		{"encryption key", "ENCRYPTION_KEY=0123abcd", "ENCRYPTION_KEY=[REDACTED]"},
		{"signing key", "signing_key: abc123", "signing_key: [REDACTED]"},
		{"master key", `{"masterKey":"abc123"}`, `{"masterKey":"[REDACTED]"}`},
		{"pwd dir kept", "PWD=/home/me OLDPWD=/tmp", "PWD=/home/me OLDPWD=/tmp"},
		{"pwd flag kept", "tool --pwd /tmp", "tool --pwd /tmp"},
		{"go test pass kept", "--- PASS: TestFoo (0.01s)\nPASS\nok  \tx", "--- PASS: TestFoo (0.01s)\nPASS\nok  \tx"},
		{"pass words kept", "bypass=yes compass: north PASS=1 passes: 3", "bypass=yes compass: north PASS=1 passes: 3"},
		{"key names kept", "primary_key: id sort_key=name keyboard: us", "primary_key: id sort_key=name keyboard: us"},
		// Mid-line (prose) assignments stay one word.
		{"prose colon", "the password: hunter2 is wrong", "the password: [REDACTED] is wrong"},
		{"prose equals", "set password=hunter2 and restart", "set password=[REDACTED] and restart"},
		{"prose after json escape", `{"t":"x\nso the password: hunter2 is wrong"}`, `{"t":"x\nso the password: [REDACTED] is wrong"}`},
		// CLI form.
		{"cli space", "codex --api-key abc123 exec", "codex --api-key [REDACTED] exec"},
		{"cli equals", "tool --token=xyz789 run", "tool --token=[REDACTED] run"},
		{"cli password quoted", `mysql --password "my pass" -u root`, `mysql --password "[REDACTED]" -u root`},
		{"cli flag follows", "tool --token --verbose", "tool --token --verbose"},
		// Bare keys.
		{"sk key", "error: invalid key " + skKey + " given", "error: invalid key [REDACTED] given"},
		{"sk proj key", "key=" + projKey, "key=[REDACTED]"},
		{"sk in prose", "using " + projKey + ".", "using [REDACTED]."},
		{"aws akia", "AKIAIOSFODNN7EXAMPLE is the id", "[REDACTED] is the id"},
		{"aws asia", "id ASIAY34FZKBOKMUTVV7A.", "id [REDACTED]."},
		// Terminal escapes.
		{"ansi sgr before key", "\x1b[31mOPENAI_API_KEY=abc123\x1b[0m", "\x1b[31mOPENAI_API_KEY=[REDACTED]\x1b[0m"},
		{"ansi sgr before sk", "\x1b[1m" + skKey + "\x1b[0m", "\x1b[1m[REDACTED]\x1b[0m"},
		{"osc title", "\x1b]0;token=abc123\x07rest", "\x1b]0;token=[REDACTED]\x07rest"},
		// Must NOT be redacted.
		{"tokens used", "tokens used: 1200", "tokens used: 1200"},
		{"max_output_tokens", `{"max_output_tokens": 100}`, `{"max_output_tokens": 100}`},
		{"token usage camel", `{"tokenUsage":{"total":{"inputTokens":5}}}`, `{"tokenUsage":{"total":{"inputTokens":5}}}`},
		{"password reset", "see the password reset docs", "see the password reset docs"},
		{"sk alone", "sk", "sk"},
		{"sk short", "sk-test", "sk-test"},
		{"task id", "task-1234 done", "task-1234 done"},
		{"desk word", "desk-lamp-with-a-very-long-name-here", "desk-lamp-with-a-very-long-name-here"},
		{"sha hash", "commit 3f786850e387550fdab836ed7e6dc881de23001b", "commit 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"uuid", "thread 0199a213-81c0-7800-8aa1-bbab2a035a53", "thread 0199a213-81c0-7800-8aa1-bbab2a035a53"},
		{"bearer prose", "Authorization headers and Bearer tokens", "Authorization headers and Bearer tokens"},
		{"keyboard", "keyboard shortcuts: ctrl+c", "keyboard shortcuts: ctrl+c"},
		{"AKIA short", "AKIA is a prefix", "AKIA is a prefix"},
		{"pwd env", "PWD=/home/me", "PWD=/home/me"},
		{"empty", "", ""},
		{"already redacted", "api_key=[REDACTED]", "api_key=[REDACTED]"},
		{"token_count key", "token_count=42", "token_count=42"},
	}
	runRedactCases(t, cases)
}

// redactCase is one table row: in redacts to want.
type redactCase struct{ name, in, want string }

// runRedactCases checks String and Bytes on every case, and that
// redacting the result again changes nothing.
func runRedactCases(t *testing.T, cases []redactCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if got := string(Bytes([]byte(tc.in))); got != tc.want {
				t.Errorf("Bytes(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := String(tc.want); got != tc.want {
				t.Errorf("String(want) changed it: %q", got)
			}
		})
	}
}

// A redacted JSON-RPC line stays valid JSON.
func TestJSONStaysValid(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"env":{"OPENAI_API_KEY":"` + skKey + `","password":1234}}}`,
		`{"method":"item/completed","params":{"item":{"aggregatedOutput":"export TOKEN=abc\nAuthorization: Bearer abcdef123456\n"}}}`,
		`{"params":{"arguments":"{\"api_key\":\"abc\",\"secret\":12}"}}`,
		`{"params":{"item":{"aggregatedOutput":"db:\n  password: correct horse \"1234\" x\\\n  secret: abc \\\\","id":"i1"}}}`,
	}
	for _, l := range lines {
		got := String(l)
		if got == l {
			t.Errorf("nothing redacted in %s", l)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("invalid JSON after redaction:\n%s\n→\n%s", l, got)
		}
		for _, secret := range []string{skKey, "abcdef123456", `"abc"`, "1234", "horse", "abc "} {
			if strings.Contains(got, secret) {
				t.Errorf("%q left in %s", secret, got)
			}
		}
	}
}

func TestBytesUnchangedIsSameSlice(t *testing.T) {
	b := []byte(`{"method":"turn/started","params":{"threadId":"t1"}}`)
	if got := Bytes(b); &got[0] != &b[0] {
		t.Error("Bytes copied text that needed no redaction")
	}
}

var benchLine = []byte(`{"jsonrpc":"2.0","method":"item/agentMessage/delta","params":{"threadId":"0199a213-81c0-7800-8aa1-bbab2a035a53","turnId":"1","itemId":"msg_1","delta":"Here is the next part of the answer, with some code: fmt.Println(x)"}}`)

var benchSecret = []byte(`{"jsonrpc":"2.0","id":3,"result":{"item":{"type":"commandExecution","command":"env","aggregatedOutput":"HOME=/root\nOPENAI_API_KEY=` + skKey + `\nPATH=/usr/bin\n","tokenUsage":{"inputTokens":12}}}}`)

func BenchmarkBytesDelta(b *testing.B) {
	b.SetBytes(int64(len(benchLine)))
	for b.Loop() {
		Bytes(benchLine)
	}
}

func BenchmarkBytesSecret(b *testing.B) {
	b.SetBytes(int64(len(benchSecret)))
	for b.Loop() {
		Bytes(benchSecret)
	}
}

func TestHandler(t *testing.T) {
	var buf strings.Builder
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil))).With("env", "OPENAI_API_KEY="+skKey)
	log.Info("starting with --token abc123", "err", errors.New("401: Authorization: Bearer tok_0123456789"),
		"n", 3, slog.Group("g", "password", "x", "line", `{"secret":"s3"}`), "tokens", 1200)
	out := buf.String()
	for _, secret := range []string{skKey, "abc123", "tok_0123456789", `"s3"`} {
		if strings.Contains(out, secret) {
			t.Errorf("%q left in log: %s", secret, out)
		}
	}
	for _, keep := range []string{"n=3", "tokens=1200", "OPENAI_API_KEY=[REDACTED]", "g.password=[REDACTED]"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q missing from log: %s", keep, out)
		}
	}
}

// FuzzString: no input makes String panic, Bytes agrees with it, and
// redacting twice changes nothing more.
func FuzzString(f *testing.F) {
	for _, s := range []string{
		`{"api_key":"x"}`, `\"token\":\"y\"`, "--password", "Authorization: Bearer ", "sk-", "AKIA",
		"a=\x1b[31msk-" + strings.Repeat("a", 30), `"secret":`, `'passwd': '`, "Bearer\t" + strings.Repeat("9", 40),
		// formats.go
		"-----BEGIN PRIVATE KEY-----\nMIIa\n-----END PRIVATE KEY-----", `"-----BEGIN EC PRIVATE KEY-----\nAb`, "x://u:p@h/a:b@c",
		"eyJabcdefghij.eyJabcdefghij.sig", "ghp_" + strings.Repeat("a1", 12), "xoxb-1234567890", "sk_live_0123456789", "AIza" + strings.Repeat("x", 35),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := String(s)
		if string(Bytes([]byte(s))) != r {
			t.Fatalf("Bytes and String disagree on %q", s)
		}
		if r2 := String(r); r2 != r {
			t.Fatalf("not idempotent: %q → %q → %q", s, r, r2)
		}
	})
}

// Secrets on the second line of a text inside an encoded JSON message
// ("…\nsk-…") are found: an escape (\n, \t, \r, \uXXXX) starts a word,
// also behind an escaped backslash (a printf argument in a command).
func TestSecretsAfterJSONEscapes(t *testing.T) {
	const sk = "sk-proj-ZZZZZZZZZZZZZZZZZZZZZZZZ1234"
	const gh = "ghp_1234567890abcdefghijklmnopqrstuvwxyz12"
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl"
	cases := []struct {
		name, in string
		leak     string
	}{
		{"sk after \\n", `{"text":"my key is\n` + sk + `"}`, sk},
		{"github token after \\n", `{"text":"my token is\n` + gh + `\n"}`, gh},
		{"after \\t", `"a\t` + sk + `"`, sk},
		{"after \\r\\n", `"a\r\n` + gh + `"`, gh},
		{"after \\u000a", `"a\u000a` + sk + `"`, sk},
		{"jwt after \\n", `"x\n` + jwt + `"`, jwt},
		{"bearer after \\n", `"curl\nBearer abcDEF1234567890xyz"`, "abcDEF1234567890xyz"},
		{"AWS key id after \\n", `"id:\nAKIAIOSFODNN7EXAMPLE"`, "AKIAIOSFODNN7EXAMPLE"},
		{"log line", `skipping malformed line {"broken": "line1\n` + sk + `\n` + gh, sk},
		{"printf argument in a command", `"command":"printf 'first line\\n` + gh + `'"`, gh},
		{"JSON text in command output", `"aggregatedOutput":"{\"note\":\"key below\\n` + gh + `\"}"`, gh},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); strings.Contains(got, tc.leak) {
				t.Errorf("String(%q) = %q: leaks", tc.in, got)
			}
		})
	}
	// Not a boundary: letters.
	for _, in := range []string{"nsk-proj-notakeyjustwordsxxxxxxx", "tokensk-proj-notakeyjustwordsxxxx"} {
		if got := String(in); got != in {
			t.Errorf("String(%q) = %q; want it unchanged", in, got)
		}
	}
}
