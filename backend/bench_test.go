package backend

import (
	"encoding/json"
	"io"
	"testing"
)

// decodeHandler decodes notifications as Session does, without a queue.
type decodeHandler struct{ n int }

func (h *decodeHandler) HandleNotification(method string, params json.RawMessage) {
	if ev, err := DecodeNotification(method, params); err == nil && ev != nil {
		h.n++
	}
}

func (h *decodeHandler) HandleRequest(*IncomingRequest) bool { return false }

// BenchmarkDispatchDelta is the per-delta path from a wire line to a typed
// event: the envelope is decoded once (params kept raw), then the params
// once into their Event.
func BenchmarkDispatchDelta(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"item/agentMessage/delta","params":{"threadId":"t1","turnId":"u1","itemId":"i1","delta":"Hello, this is a streaming chunk of the agent's answer."}}`)
	h := &decodeHandler{}
	c := NewConn(nil, io.Discard, h, nil)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.dispatch(line); err != nil {
			b.Fatal(err)
		}
	}
	if h.n == 0 {
		b.Fatal("no event decoded")
	}
}
