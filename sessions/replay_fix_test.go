package sessions

import (
	"context"
	"strings"
	"testing"

	"tandem/backend"
)

const cutRecording = `{"type":"header","version":1,"tandem":"dev","codex":"0.0","width":80,"height":20,"start":"2026-11-29T20:22:03.229Z","cwd":"/w"}
{"t":1,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"thread/start","params":{}}}
{"t":2,"dir":"recv","msg":{"id":2,"result":{"thread":{"id":"thr_1","turns":[]},"model":"m","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"readOnly"}}}}
this line is not JSON
{"t":3,"dir":"recv","msg":{"method":"turn/started","params":{"threadId":"thr_1","turn":{"id":"turn_1","items":[],"status":"inProgress","error":null}}}}
{"t":4,"dir":"recv","msg":"not a message"}
{"t":5,"dir":"recv","msg":{"method":"item/started","params":{"threadId":"thr_1","turnId":"turn_1","item":{"type":"agentMessage","id":"m1","text":""}}}}
{"t":6,"dir":"recv","msg":{"method":"item/agentMessage/de`

// A recording cut mid-turn ends the turn when it ends, and its unreadable
// lines are reported once, with their count.
func TestReplayCutRecording(t *testing.T) {
	rec, err := ReadRecording(strings.NewReader(cutRecording))
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	NewPlayer(rec, PlayerOptions{Speed: 16, IdleLimit: 1}).Run(context.Background(), func(v any) {
		if _, ok := v.(PlayerStatus); !ok {
			got = append(got, v)
		}
	})
	var warnings []string
	for _, v := range got {
		if w, ok := v.(backend.WarningEvent); ok {
			warnings = append(warnings, w.Text())
		}
	}
	want := []string{
		"3 lines of this recording could not be read and were skipped",
		"the recording ends here, in the middle of a turn",
	}
	if strings.Join(warnings, "|") != strings.Join(want, "|") {
		t.Errorf("notices %q; want %q", warnings, want)
	}
	last, ok := got[len(got)-1].(backend.TurnCompletedEvent)
	if !ok || last.Turn.ID != "turn_1" || last.ThreadID != "thr_1" {
		t.Fatalf("last value %#v; want turn_1 completed", got[len(got)-1])
	}
}
