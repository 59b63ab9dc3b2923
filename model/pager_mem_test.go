package model

import (
	"runtime"
	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// After the pager has drawn a 2 MB answer whole and closed, memory goes
// back to within 20 % of what it was before, and the screen is the same
// (#17).
func TestPagerMemoryReturnsAfterClose(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a 2 MB answer whole")
	}
	m := bigAnswerModel(t, 2<<20)
	screen := plain(m)
	before := liveHeap()
	_, cmd := m.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	for cmd != nil {
		_, cmd = m.Update(cmd())
	}
	open := liveHeap()
	m.Update(tea.KeyPressMsg{Code: 'q'})
	if got := plain(m); got != screen {
		t.Fatalf("the screen after the pager differs:\n%s\n--- before:\n%s", got, screen)
	}
	after := liveHeap()
	t.Logf("live heap: %d MiB before, %d MiB with the pager full, %d MiB after it closed", before>>20, open>>20, after>>20)
	if after > before+before/5 {
		t.Errorf("live heap %d MiB after the pager closed, %d MiB before", after>>20, before>>20)
	}
	runtime.KeepAlive(m)
}

// bigAnswerModel is a ready model whose thread holds one finished answer
// of mockapi.BigMarkdownText(size), drawn once on screen as the live
// view draws it (the last screens styled).
func bigAnswerModel(tb testing.TB, size int) *Model {
	m := benchModel(tb)
	m.Update(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "big", Text: mockapi.BigMarkdownText(size)}})
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	_ = m.View().Content
	return m
}
