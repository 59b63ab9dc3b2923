package teatest

import (
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// --yolo (approval never, no sandbox): the status line says YOLO on its
// left in words, so NO_COLOR (this screen has no colours) shows it too.
func TestGoldenYoloBadge(t *testing.T) {
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "never", Sandbox: "danger-full-access", Peer: "local"})
	golden(t, u, " YOLO ")
}
