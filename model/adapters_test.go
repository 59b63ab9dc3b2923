package model

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Every server request kind of backend's protocol table has an adapter
// here, built from a request of that kind (a kind added to the table
// without one fails), and no adapter names a kind the table lacks.
func TestEveryRequestKindHasAnAdapter(t *testing.T) {
	methods := backend.RequestMethods()
	for _, method := range methods {
		if _, ok := requestAdapters[method]; !ok {
			t.Errorf("%s is in backend's request table but has no adapter", method)
			continue
		}
		req, err := backend.DecodeRequest(method, backend.RequestID(`1`), json.RawMessage(`{"threadId":"th"}`), (&replies{}).reply)
		if err != nil || req == nil {
			t.Fatalf("decoding %s: %v", method, err)
		}
		if _, fallback := adapterFor(req).(refusal); fallback {
			t.Errorf("%s falls back to a refusal", method)
		}
	}
	for method := range requestAdapters {
		if !slices.Contains(methods, method) {
			t.Errorf("adapter for %s, which backend's table does not decode", method)
		}
	}
}

// A watcher's model shows what each kind waits for and has nothing to
// answer with: it holds the request's view, never a request.
func TestWatcherWaitsForEveryKind(t *testing.T) {
	for _, method := range backend.RequestMethods() {
		t.Run(method, func(t *testing.T) {
			m := New(Options{NoColor: true, ReadOnly: true, Shared: true})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			m.Update(backend.RequestView{ID: backend.RequestID(`7`), Method: method})
			if got := m.Pending(); len(got) != 0 {
				t.Fatalf("a watcher holds %d answerable requests", len(got))
			}
			want, ok := waitingFor[method]
			if !ok {
				want = "an answer"
			}
			if v := plain(m); !strings.Contains(v, "waiting for a driver — "+want) {
				t.Fatalf("no waiting line for %s:\n%s", method, v)
			}
			m.Update(backend.RequestResolvedEvent{RequestID: backend.RequestID(`7`)})
			if v := plain(m); strings.Contains(v, "waiting for") {
				t.Fatalf("the waiting line outlived the request:\n%s", v)
			}
		})
	}
}
