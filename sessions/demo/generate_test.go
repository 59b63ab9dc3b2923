package demo

import (
	"flag"
	"path/filepath"
	"testing"
	"time"

	"tandem/internal/testkit/mockapi"
)

var generate = flag.Bool("generate", false, "record demo.jsonl from the real app-server and the mock provider")

const demoMarkdown = "## How tandem draws an answer\n\n" +
	"tandem folds the app-server's events into one transcript and renders each item with its own cell:\n\n" +
	"| Item | Cell | Streams |\n" +
	"|------|------|---------|\n" +
	"| agent message | Markdown (glamour) | yes, debounced |\n" +
	"| command | header, output head and tail | yes |\n" +
	"| file change | coloured unified diff | no |\n" +
	"| question | inline form | no |\n\n" +
	"Streaming stays cheap because only the tail is re-rendered:\n\n" +
	"```go\n" +
	"func (c *AgentCell) Append(delta string) {\n" +
	"\tc.text.WriteString(delta)\n" +
	"\tc.dirty = true // the stable prefix stays cached\n" +
	"}\n" +
	"```\n\n" +
	"Next, try a command: it will ask for **approval** first.\n"

const greetPatch = "*** Begin Patch\n*** Add File: greet.sh\n+#!/bin/sh\n+# greet.sh: say hello\n+name=${1:-world}\n+echo \"Hello, $name! 👋\"\n*** End Patch\n"

const greetUpdate = "*** Begin Patch\n*** Update File: greet.sh\n@@\n-echo \"Hello, $name! 👋\"\n+echo \"Ahoy, $name! Welcome aboard ⚓\"\n*** End Patch\n"

// TestGenerateDemo records demo.jsonl. It runs only with -generate.
func TestGenerateDemo(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to re-record demo.jsonl")
	}
	slow := 12 * time.Millisecond
	responses := []mockapi.Response{
		// Turn 1: a streamed Markdown answer with a table and a code block.
		{Items: []mockapi.Item{mockapi.Reasoning("Explaining the render pipeline"), mockapi.Text(demoMarkdown)}, ChunkDelay: slow,
			Usage: mockapi.Usage{InputTokens: 5200, OutputTokens: 310}},
		// Turn 2: a file diff (apply_patch) and a command, both approved.
		{Items: []mockapi.Item{mockapi.Text("I'll add a small script first."), mockapi.Call("exec_command", execArgs("apply_patch <<'EOF'\n"+greetPatch+"EOF\n"))}, ChunkDelay: slow},
		{Items: []mockapi.Item{mockapi.Call("exec_command", execArgs("sh greet.sh tandem | tee greeting.txt"))}},
		{Items: []mockapi.Item{mockapi.Text("Created `greet.sh` and ran it — it printed `Hello, tandem! 👋` and saved it to `greeting.txt`.")}, ChunkDelay: slow,
			Usage: mockapi.Usage{InputTokens: 9800, OutputTokens: 220}},
		// Turn 3, in plan mode: a question form, then a proposed plan.
		{Items: []mockapi.Item{mockapi.Call("ask_user_question", jsonArgs(map[string]any{
			"title":       "Greeting style",
			"description": "Pick how greet.sh should sound.",
			"questions": []map[string]any{{
				"id": "tone", "header": "Tone", "question": "Which tone should the greeting use?",
				"options": []map[string]string{
					{"label": "Pirate", "value": "pirate", "description": "Ahoy, tandem!"},
					{"label": "Formal", "value": "formal", "description": "Good day, tandem."},
					{"label": "Cheerful", "value": "cheerful", "description": "Hi there, tandem!"},
				},
			}},
		}))}},
		{Items: []mockapi.Item{mockapi.Text("Pirate it is.\n\n<proposed_plan>\n# Pirate greeting\n\n1. Change the `echo` line in `greet.sh` to a pirate greeting.\n2. Run `sh greet.sh tandem` to check it.\n</proposed_plan>\n")}, ChunkDelay: slow,
			Usage: mockapi.Usage{InputTokens: 12100, OutputTokens: 90}},
		// Turn 4: carry out the plan, tracked as a checklist (update_plan):
		// a diff and a command, both approved.
		{Items: []mockapi.Item{mockapi.Call("update_plan", planArgs("in_progress", "pending"))}},
		{Items: []mockapi.Item{mockapi.Call("exec_command", execArgs("apply_patch <<'EOF'\n"+greetUpdate+"EOF\n"))}},
		{Items: []mockapi.Item{mockapi.Call("update_plan", planArgs("completed", "in_progress"))}},
		{Items: []mockapi.Item{mockapi.Call("exec_command", execArgs("sh greet.sh tandem"))}},
		{Items: []mockapi.Item{mockapi.Call("update_plan", planArgs("completed", "completed"))}},
		{Items: []mockapi.Item{mockapi.Text("Done: `greet.sh` now greets like a pirate. ⚓")}, ChunkDelay: slow,
			Usage: mockapi.Usage{InputTokens: 14100, OutputTokens: 180}},
	}
	turns := []scriptedTurn{
		{prompt: "How does tandem render a streamed answer?"},
		{prompt: "Add a greeting script and run it"},
		{prompt: "Plan how to make the greeting more fun", mode: "plan"},
		{prompt: "Go ahead", mode: "default"}, // plan mode lasts until changed
	}
	recordSession(t, filepath.Join(".", "demo.jsonl"), demoWorkspace(t), 1500*time.Millisecond, responses, turns)
}

// planArgs are update_plan arguments for the demo's last turn: the tone is
// chosen; edit and run are in the given states.
func planArgs(edit, run string) string {
	return jsonArgs(map[string]any{"plan": []map[string]string{
		{"step": "Ask for the tone", "status": "completed"},
		{"step": "Change the echo line to a pirate greeting", "status": edit},
		{"step": "Run sh greet.sh tandem", "status": run},
	}})
}
