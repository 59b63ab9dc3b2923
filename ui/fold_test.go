package ui

import (
	"fmt"

	"tandem/backend"
	"tandem/thread"
)

// The cells draw thread items, which only the fold changes: these helpers
// make and change items the way the app-server's events do, and touch the
// cell like the model does.

var testItemSeq int

func nextID() string {
	testItemSeq++
	return fmt.Sprintf("item-%d", testItemSeq)
}

// testAgent is an AgentCell on an agent item of its own.
type testAgent struct {
	*AgentCell
	st *thread.State
	id string
}

func newTestAgent() *testAgent {
	a := &testAgent{st: &thread.State{}, id: nextID()}
	ch := a.st.Apply(backend.AgentMessageDeltaEvent{ItemID: a.id})
	a.AgentCell = NewAgentCell(ch.Item)
	return a
}

// Append streams a delta.
func (a *testAgent) Append(delta string) {
	a.st.Apply(backend.AgentMessageDeltaEvent{ItemID: a.id, Delta: delta})
	a.Touch()
}

// SetFinal completes the item with text.
func (a *testAgent) SetFinal(text string) {
	a.st.Apply(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: a.id, Text: text}})
	a.Touch()
}

// Text is what streamed so far.
func (a *testAgent) Text() string { return a.Item.Text() }

// testCommand is a CommandCell on a command item of its own.
type testCommand struct {
	*CommandCell
	st *thread.State
	id string
}

func newTestCommand(command, status string) *testCommand {
	c := &testCommand{st: &thread.State{}, id: nextID()}
	ch := c.st.Apply(backend.ItemStartedEvent{Item: backend.Item{Type: "commandExecution", ID: c.id, Command: command, Status: status}})
	c.CommandCell = &CommandCell{Item: ch.Item}
	return c
}

// AppendOutput streams output.
func (c *testCommand) AppendOutput(s string) {
	c.st.Apply(backend.CommandOutputDeltaEvent{ItemID: c.id, Delta: s})
	c.Touch()
}

// Close removes the spill file.
func (c *testCommand) Close() { c.Item.Output.Close() }
