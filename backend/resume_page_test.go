package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// ResumeThread asks for the newest page instead of the whole history and
// hands it over oldest first with the cursor of the turns before it; a
// server that leaves the turns out but sends no page gets a
// thread/turns/list for it.
func TestResumeThreadTakesTheNewestPage(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		list         bool // the session must read the page itself
	}{
		{"page", `{"thread":{"id":"th-2","turns":[]},"initialTurnsPage":{"data":[{"id":"t9","items":[],"status":"completed"},{"id":"t8","items":[],"status":"completed"}],"nextCursor":"c8"}}`, false},
		{"no page", `{"thread":{"id":"th-2"}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, pt, _ := startFakeSession(t)
			type res struct {
				r   ThreadResponse
				err error
			}
			rc := make(chan res, 1)
			go func() {
				r, err := s.ResumeThread(context.Background(), "th-2")
				rc <- res{r, err}
			}()
			req := pt.next(t)
			if req["method"] == "config/read" { // the writable roots, when asked (sandbox.go)
				pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":{"config":{}}}`)
				req = pt.next(t)
			}
			if req["method"] != "thread/resume" {
				t.Fatalf("want thread/resume, got %v", req)
			}
			p := req["params"].(map[string]any)
			page, _ := p["initialTurnsPage"].(map[string]any)
			if p["excludeTurns"] != true || page["sortDirection"] != "desc" || page["itemsView"] != "full" || page["limit"] != float64(ResumeTurns) {
				t.Fatalf("resume params %v", p)
			}
			pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":`+tc.result+`}`)
			if tc.list {
				l := pt.next(t)
				lp, _ := json.Marshal(l["params"])
				if l["method"] != "thread/turns/list" || string(lp) != `{"itemsView":"full","limit":30,"sortDirection":"desc","threadId":"th-2"}` {
					t.Fatalf("fallback request %v %s", l["method"], lp)
				}
				pt.say(t, `{"id":`+string(mustJSON(l["id"]))+`,"result":{"data":[{"id":"t9","items":[],"status":"completed"},{"id":"t8","items":[],"status":"completed"}],"nextCursor":"c8"}}`)
			}
			r := <-rc
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := r.r.Thread.Turns; len(got) != 2 || got[0].ID != "t8" || got[1].ID != "t9" || r.r.Older != "c8" || r.r.InitialTurnsPage != nil {
				t.Fatalf("turns %+v older %q", got, r.r.Older)
			}
		})
	}
}

// pagedClient serves ListTurns from all, a cursor being the index of the
// first turn already read.
type pagedClient struct {
	Unavailable
	all   []Turn
	calls int
}

func (p *pagedClient) ListTurns(_ context.Context, _, cursor string, limit int) ([]Turn, string, error) {
	p.calls++
	end := len(p.all)
	if cursor != "" {
		fmt.Sscan(cursor, &end)
	}
	start := max(0, end-limit)
	older := ""
	if start > 0 {
		older = fmt.Sprint(start)
	}
	return append([]Turn(nil), p.all[start:end]...), older, nil
}

func TestReadBackAndJoinTurns(t *testing.T) {
	var all []Turn
	for i := range 1000 {
		all = append(all, Turn{ID: fmt.Sprint("t", i)})
	}
	c := &pagedClient{all: all}
	got, older, err := LatestTurns(context.Background(), c, "th", 450)
	if err != nil || len(got) != 450 || got[0].ID != "t550" || got[449].ID != "t999" || older != "550" || c.calls != 3 {
		t.Fatalf("LatestTurns: %d turns from %v, older %q, %d calls, err %v", len(got), got[0].ID, older, c.calls, err)
	}
	back, older := ReadBack(context.Background(), c, "th", got[400:], "950", 120)
	if len(back) != 120 || back[0].ID != "t880" || older != "880" {
		t.Fatalf("ReadBack: %d turns from %s, older %q", len(back), back[0].ID, older)
	}
	if all, older := ReadBack(context.Background(), c, "th", nil, "30", 100); len(all) != 30 || older != "" {
		t.Fatalf("ReadBack to the first turn: %d turns, older %q", len(all), older)
	}
	// Back to a known turn: no read when the page has it, one page when
	// it is just before, never past n.
	c.calls = 0
	if back, older := ReadBackTo(context.Background(), c, "th", got[400:], "950", "t960", 1000); len(back) != 50 || older != "950" || c.calls != 0 {
		t.Fatalf("ReadBackTo a turn of the page: %d turns, older %q, %d calls", len(back), older, c.calls)
	}
	if back, _ := ReadBackTo(context.Background(), c, "th", got[400:], "950", "t940", 1000); back[0].ID != "t750" || c.calls != 1 {
		t.Fatalf("ReadBackTo the turn before: from %s, %d calls", back[0].ID, c.calls)
	}
	if back, _ := ReadBackTo(context.Background(), c, "th", got[400:], "950", "t-gone", 120); len(back) != 120 {
		t.Fatalf("ReadBackTo an unknown turn: %d turns, want n", len(back))
	}
	// The resume's page, with a turn that ran since the read, joins on.
	page := []Turn{{ID: "t998"}, {ID: "t999"}, {ID: "t1000"}}
	joined, ok := JoinTurns(got, page)
	if !ok || len(joined) != 451 || joined[447].ID != "t997" || joined[450].ID != "t1000" {
		t.Fatalf("JoinTurns: ok %v, %d turns", ok, len(joined))
	}
	if got[449].ID != "t999" {
		t.Fatal("JoinTurns wrote into earlier")
	}
	if j, ok := JoinTurns(got[:10], page); ok || len(j) != 3 {
		t.Fatalf("a gap joined: ok %v, %d turns", ok, len(j))
	}
}
