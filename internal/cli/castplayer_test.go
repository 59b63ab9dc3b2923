package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/sessions"
	"tandem/sessions/demo"
)

// playerTools finds what TestCastInARealPlayer runs: node, the
// asciinema-player and playwright-core installed by
// scripts/install-player.sh (TANDEM_PLAYER_DIR, else the project's
// .cache/player) and chromium (CHROMIUM, else on PATH). Under CI (CI or
// TANDEM_REQUIRE_PLAYER set, as .ci/run and scripts/test.sh do) a
// missing one fails the test; elsewhere it skips, saying what to install.
func playerTools(t *testing.T) (node, dir, browser string) {
	t.Helper()
	dir = os.Getenv("TANDEM_PLAYER_DIR")
	if dir == "" {
		dir, _ = filepath.Abs(filepath.Join("..", "..", ".cache", "player"))
	}
	browser = os.Getenv("CHROMIUM")
	var missing []string
	var err error
	if node, err = exec.LookPath("node"); err != nil {
		missing = append(missing, "node")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "asciinema-player", "dist", "bundle", "asciinema-player.min.js")); err != nil {
		missing = append(missing, "asciinema-player in "+dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		missing = append(missing, "playwright-core in "+dir)
	}
	if browser == "" {
		if browser, err = exec.LookPath("chromium"); err != nil {
			missing = append(missing, "chromium")
		}
	}
	if len(missing) > 0 {
		msg := "missing " + strings.Join(missing, ", ") + ": run scripts/install-player.sh (and apt-get install chromium)"
		if os.Getenv("CI") != "" || os.Getenv("TANDEM_REQUIRE_PLAYER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, dir, browser
}

// playerReport is what scripts/castplayer.mjs prints.
type playerReport struct {
	Duration float64 `json:"duration"`
	Markers  []struct {
		Time    float64  `json:"time"`
		Tooltip string   `json:"tooltip"`
		Screen  []string `json:"screen"`
	} `json:"markers"`
	End    []string `json:"end"`
	Errors []string `json:"errors"`
	Error  string   `json:"error"`
}

// TestCastInARealPlayer: a cast tandem writes (the demo exported with
// --format cast, in v3 and v2) loads in asciinema-player 3.17 in
// headless Chromium: its duration is the cast's, its chapters are the
// cast's markers — labels, and the times the player seeks to — and the
// screen at each turn's chapter shows that turn's prompt.
func TestCastInARealPlayer(t *testing.T) {
	node, dir, browser := playerTools(t)
	tmp := t.TempDir()
	rec := writeFile(t, filepath.Join(tmp, "demo.jsonl"), string(demo.Transcript))
	// What the player made of each version: the same session must play
	// the same (v2's times are since the start, v3's since the event
	// before: a v3 written with v2's times plays longer).
	seen := map[int]playerReport{}
	defer func() {
		v2, ok2 := seen[sessions.CastV2]
		v3, ok3 := seen[sessions.CastV3]
		if !ok2 || !ok3 {
			return
		}
		if math.Abs(v2.Duration-v3.Duration) > 0.002 || len(v2.Markers) != len(v3.Markers) {
			t.Errorf("v2 plays %.3f s with %d chapters, v3 %.3f s with %d", v2.Duration, len(v2.Markers), v3.Duration, len(v3.Markers))
			return
		}
		for i := range v2.Markers {
			if math.Abs(v2.Markers[i].Time-v3.Markers[i].Time) > 0.002 {
				t.Errorf("chapter %d: at %.3f s in v2, %.3f s in v3", i+1, v2.Markers[i].Time, v3.Markers[i].Time)
			}
		}
	}()
	for _, version := range []int{sessions.CastV3, sessions.CastV2} {
		t.Run("v"+string(rune('0'+version)), func(t *testing.T) {
			out := filepath.Join(tmp, "demo"+string(rune('0'+version))+".cast")
			if err := runExport(ExportOptions{File: rec, Output: out, Theme: "dark", Speed: 1, IdleLimit: 2, CastVersion: version}, os.Stdout, os.Stderr); err != nil {
				t.Fatal(err)
			}
			_, cast, err := sessions.LoadSession(out)
			if err != nil {
				t.Fatal(err)
			}
			if cast.Header.Version != version {
				t.Fatalf("version %d; want %d", cast.Header.Version, version)
			}
			type mark struct {
				at    float64
				label string
			}
			var marks []mark
			for _, e := range cast.Events {
				if e.Code == "m" {
					marks = append(marks, mark{e.At.Seconds(), e.Data})
				}
			}
			last := cast.Events[len(cast.Events)-1].At.Seconds()

			// A deadline only for a hang.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, filepath.Join("..", "..", "scripts", "castplayer.mjs"), out)
			cmd.Env = append(os.Environ(), "TANDEM_PLAYER_DIR="+dir, "CHROMIUM="+browser)
			cmd.Stderr = os.Stderr
			b, err := cmd.Output()
			if err != nil {
				t.Fatalf("castplayer.mjs: %v\n%s", err, b)
			}
			var r playerReport
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatalf("castplayer.mjs printed %q: %v", b, err)
			}
			if r.Error != "" || len(r.Errors) > 0 {
				t.Fatalf("the player: %s %q", r.Error, r.Errors)
			}
			seen[version] = r
			if math.Abs(r.Duration-last) > 0.002 {
				t.Errorf("the player's duration %.3f s; the cast's last event is at %.3f s", r.Duration, last)
			}
			if len(r.Markers) != len(marks) || len(marks) < 4 {
				t.Fatalf("the player shows %d chapters; the cast has %d markers", len(r.Markers), len(marks))
			}
			turns := 0
			for i, m := range r.Markers {
				want := marks[i]
				if !strings.HasSuffix(m.Tooltip, " - "+want.label) {
					t.Errorf("chapter %d: %q; want the label %q", i+1, m.Tooltip, want.label)
				}
				if math.Abs(m.Time-want.at) > 0.002 {
					t.Errorf("chapter %d (%s) at %.3f s; the marker is at %.3f s", i+1, want.label, m.Time, want.at)
				}
				if _, prompt, ok := strings.Cut(want.label, ": "); ok && strings.HasPrefix(want.label, "turn ") {
					turns++
					if screen := strings.Join(m.Screen, "\n"); !strings.Contains(screen, prompt) {
						t.Errorf("at %q the player shows:\n%s", want.label, screen)
					}
				}
			}
			if turns != 4 {
				t.Errorf("%d turn chapters; want the demo's 4", turns)
			}
			if end := strings.Join(r.End, "\n"); !strings.Contains(end, "greet.sh") {
				t.Errorf("the last screen:\n%s", end)
			}
		})
	}
}
