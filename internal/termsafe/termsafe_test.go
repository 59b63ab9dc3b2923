package termsafe

import "testing"

func TestPlain(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain kept", "a\tb\nc", "a\tb\nc"},
		{"osc 52 dropped", "x\x1b]52;c;aGk=\x07y", "xy"},
		{"clear screen dropped", "\x1b[2J\x1b[Hhi", "hi"},
		{"title dropped", "\x1b]0;pwned\x07ok", "ok"},
		{"colour dropped", "\x1b[31mred\x1b[0m", "red"},
		{"lone esc dropped", "a\x1b", "a"},
		{"carriage return shown", "rm -rf x\rsafe", "rm -rf x␍safe"},
		{"crlf", "a\r\nb", "a\nb"},
		{"bell shown", "a\x07b", "a␇b"},
		{"bidi shown", "a\u202eb", "a<U+202E>b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Plain(tc.in); got != tc.want {
				t.Fatalf("Plain(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
