package backend

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestUntestedCodex(t *testing.T) {
	for v, want := range map[string]string{
		"0.169.0": "", "0.170.2": "", "0.171.0": "", "": "", "dev": "",
		"0.168.9": "older than tandem is tested with (0.169.0–0.171.0)",
		"0.172.0": "newer than tandem is tested with", "1.0.0": "newer",
	} {
		got := UntestedCodex(v)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("UntestedCodex(%q) = %q; want %q", v, got, want)
		}
	}
	if v := CodexVersionOf("codex_cli_rs/0.169.0 (Debian 12; x86_64) xterm"); v != "0.169.0" {
		t.Errorf("CodexVersionOf = %q", v)
	}
}

// The range is what the scripts install and CI runs.
func TestTestedRangeMatchesScripts(t *testing.T) {
	for file, want := range map[string]string{"../scripts/install-codex.sh": `PINNED=` + TestedCodexMin, "../scripts/test.sh": `CODEX_NEXT=` + TestedCodexMax} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `$`).Match(b) {
			t.Errorf("%s does not set %s", file, want)
		}
	}
}
