package backend

import (
	"strings"
	"testing"

	"tandem/internal/lib/redact"
)

// A PEM private key streamed line by line, in pieces of any size, never
// leaves any of its body: the lines after the BEGIN line are held back up
// to the END line, and the streamed text equals redact.String of the
// whole text.
func TestStreamRedactorPEMBlock(t *testing.T) {
	body := []string{"MIIEowIBAAKCAQEAvKkS0fSd8xqLEAKYBODYLINE1abc", "2v9Jc1k4ZpQ+4s0xyzLEAKYBODYLINE2/AbCdEf==", "dGhpcyBpcyBub3QgYSByZWFsIGtleQLEAKY3=="}
	text := "Here is the key:\n-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(body, "\n") + "\n-----END RSA PRIVATE KEY-----\nand some words after it.\n"
	for _, size := range []int{1, 2, 3, 5, 8, 13, 64, len(text)} {
		red := NewStreamRedactor()
		var got strings.Builder
		for i := 0; i < len(text); i += size {
			got.WriteString(deltaOf(t, red.Line(deltaLine("k1", text[i:min(len(text), i+size)]))))
		}
		s := got.String()
		for _, b := range body {
			for j := 0; j+6 <= len(b); j += 6 {
				if strings.Contains(s, b[j:j+6]) {
					t.Fatalf("size %d: streamed text leaks %q: %q", size, b[j:j+6], s)
				}
			}
		}
		if want := redact.String(text); s != want {
			t.Errorf("size %d: streamed text\n got %q\nwant %q", size, s, want)
		}
	}
}

// A key block whose END line never comes hides the rest of the stream
// (the item's final text, redacted whole, replaces it on item/completed).
func TestStreamRedactorPEMWithoutEnd(t *testing.T) {
	red := NewStreamRedactor()
	var got strings.Builder
	for _, d := range []string{"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqLEAK", "\nAAAAmoreLEAK\n", strings.Repeat("X", maxHeldLine+10)} {
		got.WriteString(deltaOf(t, red.Line(deltaLine("k2", d))))
	}
	if s := got.String(); strings.Contains(s, "LEAK") || strings.Contains(s, "XXXX") || !strings.HasPrefix(s, "-----BEGIN PRIVATE KEY-----"+redact.Marker) {
		t.Errorf("streamed %q", s)
	}
}
