package ui

import (
	"testing"

	"tandem/thread"
)

// TestItemCell: the cells that draw a thread item give it back; the cells
// of a viewer's own are no ItemCell.
func TestItemCell(t *testing.T) {
	it := &thread.Item{Type: "commandExecution"}
	for _, c := range []Cell{NewAgentCell(it), &ReasoningCell{Item: it}, &CommandCell{Item: it},
		&FileChangeCell{Item: it}, &PlanCell{Item: it}, &ToolCell{Item: it}} {
		if ic, ok := c.(ItemCell); !ok || ic.ThreadItem() != it {
			t.Errorf("%T: ItemCell %v, item %v; want its item", c, ok, ok && ic.ThreadItem() == it)
		}
	}
	for _, c := range []Cell{&UserCell{}, &BannerCell{}, &DiffCell{}, &OlderCell{}} {
		if _, ok := c.(ItemCell); ok {
			t.Errorf("%T is an ItemCell; it draws no thread item", c)
		}
	}
}
