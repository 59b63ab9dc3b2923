// Package forms builds the huh forms tandem shows inline under the
// transcript: approvals (with a scrollable diff), permission grants, the
// agent's questions and MCP elicitations. Each builder takes a plain spec and yields a typed answer;
// forms never see protocol JSON and never send anything themselves — the
// model turns the answer into the JSON-RPC reply.
//
// They are drawn in tandem's own theme (theme.go): dark, light or
// NO_COLOR, every text at a WCAG contrast of 4.5:1 or more.
//
// forms must not import backend/, model/ or ui/.
package forms
