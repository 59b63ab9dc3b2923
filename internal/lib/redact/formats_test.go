package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// Fake secrets in the real formats (none of them is a live credential).
var (
	ghToken   = "ghp_" + strings.Repeat("aB3d", 9)                   // 36 after the prefix
	ghPAT     = "github_pat_11ABCDEFG0" + strings.Repeat("xY_9", 15) // fine-grained PAT
	slackBot  = "xoxb-123456789012-1234567890123-" + strings.Repeat("Ab1", 8)
	googleKey = "AIza" + strings.Repeat("Sy1-_", 7) // 4 + 35 = 39
	stripeKey = "sk_live_" + strings.Repeat("4eC39HqLyj", 3)
	jwt       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemBody   = "MIIEowIBAAKCAQEAvKkS0fSd8xq\n2v9Jc1k4ZpQ+4s0xyz/AbCdEf==\n"
	pemKey    = "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----"
)

func TestStringFormats(t *testing.T) {
	cases := []redactCase{
		// GitHub.
		{"github ghp", "token " + ghToken + " ok", "token [REDACTED] ok"},
		{"github gho", "gho_" + strings.Repeat("Z9", 18), "[REDACTED]"},
		{"github ghs in json", `{"t":"ghs_` + strings.Repeat("q1", 18) + `"}`, `{"t":"[REDACTED]"}`},
		{"github pat", "use " + ghPAT + ".", "use [REDACTED]."},
		// Slack.
		{"slack bot", "SLACK " + slackBot, "SLACK [REDACTED]"},
		{"slack user", "xoxp-1111111111-2222222222-abcdefABCDEF", "[REDACTED]"},
		{"slack app", "(xoxa-2-abcdef0123456789)", "([REDACTED])"},
		// Google.
		{"google key", "key " + googleKey + " in url", "key [REDACTED] in url"},
		{"google key in query", "https://maps.example.com/api?q=1&k=" + googleKey, "https://maps.example.com/api?q=1&k=[REDACTED]"},
		// Stripe.
		{"stripe live", "charge with " + stripeKey, "charge with [REDACTED]"},
		{"stripe test", `"sk_test_4eC39HqLyjWDarjtT1zdp7dc"`, `"[REDACTED]"`},
		{"stripe restricted", "rk_live_51Habcdefghijklmnop", "[REDACTED]"},
		// JWT.
		{"jwt", "id_token " + jwt + " end", "id_token [REDACTED] end"},
		{"jwt in json", `{"jwt":"` + jwt + `"}`, `{"jwt":"[REDACTED]"}`},
		// Passwords in URLs keep the user.
		{"url postgres", "DATABASE_URL=postgres://admin:hunter2@db.internal:5432/app", "DATABASE_URL=postgres://admin:[REDACTED]@db.internal:5432/app"},
		{"url https", "fetch https://user:pass@example.com/x", "fetch https://user:[REDACTED]@example.com/x"},
		{"url no user", "redis://:s3cr3t@cache:6379", "redis://:[REDACTED]@cache:6379"},
		{"url at in password", "mysql://root:p@ss@h/db", "mysql://root:[REDACTED]@h/db"},
		{"url in json", `{"url":"amqp://guest:guestpw@mq/"}`, `{"url":"amqp://guest:[REDACTED]@mq/"}`},
		// A password with a raw #, ? or / runs to the last @ of the word.
		{"url password with #", "mysql://root:S3cr3t!#x@db/app", "mysql://root:[REDACTED]@db/app"},
		{"url password with ?", "DB=postgres://app:a?b@db:5432/x ok", "DB=postgres://app:[REDACTED]@db:5432/x ok"},
		{"url password with /", "https://u:a/b/c@example.com/path", "https://u:[REDACTED]@example.com/path"},
		{"url password with @ and #", "redis://:p@ss#1@cache:6379", "redis://:[REDACTED]@cache:6379"},
		{"url password with # in json", `{"url":"mysql://root:S3#x@db/app"}`, `{"url":"mysql://root:[REDACTED]@db/app"}`},
		{"url password with # ends at the line", "mysql://root:S3#x\n@db", "mysql://root:S3#x\n@db"},
		{"url passwords in a list", "a=https://u:p#1@h1,https://v:q#2@h2", "a=https://u:[REDACTED]@h1,https://v:[REDACTED]@h2"},
		{"url password, scoped path", "https://u:tok@registry.example.com/@scope/pkg", "https://u:[REDACTED]@registry.example.com/@scope/pkg"},
		// PEM private keys: the body goes, the BEGIN/END lines stay.
		{"pem multi-line", "key:\n" + pemKey + "\ndone", "key:\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\ndone"},
		{"pem plain label", "-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----"},
		{"pem openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n", "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]-----END OPENSSH PRIVATE KEY-----\n"},
		{"pem json escapes", `{"out":"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\nIBx+y=\n-----END EC PRIVATE KEY-----\n"}`, `{"out":"-----BEGIN EC PRIVATE KEY-----[REDACTED]-----END EC PRIVATE KEY-----\n"}`},
		{"pem cut off", "cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAvKkS\nAbCd+/=", "cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]"},
		// Must NOT be redacted.
		{"sk_ in identifiers", "task_list and mask_test_value and desk_live_x", "task_list and mask_test_value and desk_live_x"},
		{"stripe publishable", "pk_live_51Habcdefghijklmnop", "pk_live_51Habcdefghijklmnop"},
		{"stripe short", "sk_live_abc", "sk_live_abc"},
		{"gh words", "ghost_town gh_pages ghp_short", "ghost_town gh_pages ghp_short"},
		{"xox word", "xoxo-hugs", "xoxo-hugs"},
		{"AIza short", "AIzaWord", "AIzaWord"},
		{"url without password", "ssh://git@github.com/org/repo.git and https://example.com:8443/x", "ssh://git@github.com/org/repo.git and https://example.com:8443/x"},
		{"url path with colon and at", "https://example.com/a:b@c", "https://example.com/a:b@c"},
		{"url user only", "ftp://anonymous@ftp.example.org/", "ftp://anonymous@ftp.example.org/"},
		{"url port then @ in the path", "http://localhost:5173/@vite/client and ftp://me@h.org:21/a@b", "http://localhost:5173/@vite/client and ftp://me@h.org:21/a@b"},
		{"url query with colon and at", "https://example.com/?a=b:c@d", "https://example.com/?a=b:c@d"},
		{"not a url", "time 10:30@noon", "time 10:30@noon"},
		{"base64 json, not a jwt", "eyJmb28iOiJiYXIifQ== and eyJhbGciOiJIUzI1NiJ9", "eyJmb28iOiJiYXIifQ== and eyJhbGciOiJIUzI1NiJ9"},
		{"two segments", "eyJhbGciOiJIUzI1NiJ9.notjson.sig", "eyJhbGciOiJIUzI1NiJ9.notjson.sig"},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----"},
		{"certificate", "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----"},
		{"markdown rule", "-----\ntext", "-----\ntext"},
	}
	runRedactCases(t, cases)
}

// The new formats inside JSON-RPC lines leave valid JSON and no secret.
func TestFormatsJSONStaysValid(t *testing.T) {
	msg := map[string]any{"method": "item/completed", "params": map[string]any{"item": map[string]any{
		"aggregatedOutput": "GH=" + ghToken + "\n" + pemKey + "\nDB=postgres://app:hunter2@db/x\n",
		"text":             "jwt " + jwt + " slack " + slackBot + " g " + googleKey + " s " + stripeKey + " pat " + ghPAT,
	}}}
	b, _ := json.Marshal(msg)
	got := String(string(b))
	if !json.Valid([]byte(got)) {
		t.Fatalf("invalid JSON after redaction:\n%s", got)
	}
	for _, secret := range []string{ghToken, "MIIEowIBAAKCAQEA", "hunter2", jwt, slackBot, googleKey, stripeKey, ghPAT} {
		if strings.Contains(got, secret) {
			t.Errorf("%q left in %s", secret, got)
		}
	}
}

func TestOpensPrivateKey(t *testing.T) {
	for in, want := range map[string]bool{
		"-----BEGIN RSA PRIVATE KEY-----\n":           true,
		"x -----BEGIN PRIVATE KEY-----":               true,
		pemKey:                                        false,
		pemKey + "\n-----BEGIN EC PRIVATE KEY-----\n": true,
		"-----BEGIN CERTIFICATE-----\n":               false,
		"no key here":                                 false,
	} {
		if got := OpensPrivateKey(in); got != want {
			t.Errorf("OpensPrivateKey(%q) = %v, want %v", in, got, want)
		}
	}
}

var benchNewFormats = []byte(`{"jsonrpc":"2.0","method":"item/completed","params":{"item":{"aggregatedOutput":"GH=` + ghToken + `\nDB=postgres://app:hunter2@db/x\n` + strings.ReplaceAll(pemKey, "\n", `\n`) + `"}}}`)

func BenchmarkBytesNewFormats(b *testing.B) {
	b.SetBytes(int64(len(benchNewFormats)))
	for b.Loop() {
		Bytes(benchNewFormats)
	}
}
