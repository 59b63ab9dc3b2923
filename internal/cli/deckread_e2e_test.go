package cli

import (
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// The read state is the server's (thread/readState), shared by every
// client of the daemon: a thread whose turn ended in the background of
// one tandem is "done · unread" in another's `tandem agents` (whose own
// guess would say idle: the history it adopts is no news to it), and
// once that one has shown it, a third sees it read.
func TestAgentsTakeUnreadFromTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("alpha", mockapi.Text("ALPHA-ANSWER here")),
		whenUser("beta", mockapi.Text("BETA-ANSWER here")),
	)
	stopDaemonAtEnd(t, env)
	first := startTandem(t, env, "--daemon", "alpha task")
	first.waitScreen("ALPHA-ANSWER here", patience)
	first.write(keyF4)
	first.waitScreen("tandem agents", patience)
	first.write(keyAltN)
	first.waitScreen("prompt for a new thread", patience)
	first.keys("beta task\r")
	first.waitScreen("BETA-ANSWER here", patience) // the list's LAST column
	first.waitScreen("done · unread", patience)    // beta's turn ended off screen

	// Another tandem adopts both threads: beta is unread on the server.
	agents := func() (*liveTandem, func(string) string) {
		lt := startTandem(t, env, "agents", "--daemon")
		lt.waitScreen("tandem agents", patience)
		lt.waitScreen("ALPHA-ANSWER here", patience)
		lt.waitScreen("BETA-ANSWER here", patience)
		return lt, func(answer string) string {
			for _, line := range strings.Split(lt.screen(), "\n") {
				if strings.Contains(line, answer) {
					return line
				}
			}
			return ""
		}
	}
	second, row := agents()
	waitRow(t, second, row, "BETA-ANSWER", "done · unread")
	if r := row("ALPHA-ANSWER"); strings.Contains(r, "unread") {
		for _, m := range first.traced() {
			if strings.Contains(m.Raw, "eadState") || strings.Contains(m.Raw, "turn/completed") {
				t.Log(m.Dir, m.Raw)
			}
		}
		t.Fatalf("alpha, shown in the first tandem, is unread: %q", r)
	}
	// Shown here, it is read for every client.
	selectRow(t, second, "BETA-ANSWER") // the rows are named by the threads' ids
	second.keys("\r")
	second.waitScreen("▌ beta task", patience)
	second.write(keyF4)
	second.waitScreen("tandem agents", patience)

	// A third reads the server's read state of beta: read.
	third, _ := agents()
	m := third.waitTrace("beta's read state", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"readState"`) && strings.Contains(m.Raw, "beta task")
	})
	if !strings.Contains(m.Raw, `"firstUnread":null`) {
		t.Errorf("beta, shown by the second tandem, is unread on the server: %s", m.Raw)
	}
}

// selectRow moves the list's cursor to the row of the thread whose LAST
// column shows answer.
func selectRow(t *testing.T, lt *liveTandem, answer string) {
	t.Helper()
	for range 10 {
		before := lt.screen()
		sel, at := -1, -1
		for i, line := range strings.Split(before, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "›") {
				sel = i
			}
			if strings.Contains(line, answer) {
				at = i
			}
		}
		if sel == at && sel >= 0 {
			return
		}
		if sel < at {
			lt.write("\x1b[B") // Down
		} else {
			lt.write("\x1b[A") // Up
		}
		deadline := time.Now().Add(patience)
		for lt.screen() == before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Fatalf("no row of %s selected:\n%s", answer, lt.screen())
}

// waitRow waits until the row of the thread whose LAST column shows
// answer has want.
func waitRow(t *testing.T, lt *liveTandem, row func(string) string, answer, want string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !strings.Contains(row(answer), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the row of %s has no %q:\n%s", answer, want, lt.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
