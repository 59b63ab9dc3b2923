// Package mockapi is a scripted mock of the OpenAI Responses API (SSE), for
// driving the real `codex app-server` without the network.
//
// # Usage
//
//	srv := mockapi.New(
//		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}},
//		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Done.")}, Usage: mockapi.Usage{InputTokens: 900, OutputTokens: 12}},
//	)
//	defer srv.Close()
//	home := t.TempDir()
//	mockapi.WriteCodexHome(home, srv.URL) // then run codex with CODEX_HOME=home
//	...
//	reqs, err := srv.WaitRequests(2, 5*time.Second)
//	out := reqs[1].FunctionCallOutputs()[callID]
//
// Each model round (POST .../responses that is a model turn) takes the next
// Response of the script. A turn that calls tools spans several rounds:
// codex runs the calls and POSTs again with their function_call_output items.
// Once the script is used up the mock answers ExhaustedText, so nothing
// hangs. Concurrent threads share one script in arrival order.
//
// The stream mirrors codex's own test helpers (core_test_support
// responses.rs) and the real API: response.created, response.in_progress,
// then per item response.output_item.added, the item's deltas
// (response.output_text.delta with item_id/output_index/content_index/delta,
// response.function_call_arguments.delta, response.reasoning_summary_text.delta
// with summary_index), the *.done events and response.output_item.done with
// the full item, and finally response.completed with usage (input_tokens,
// input_tokens_details.cached_tokens, output_tokens,
// output_tokens_details.reasoning_tokens, total_tokens). Codex acts on
// response.created, output_item.added/done, the text and reasoning deltas
// and response.completed (without which the round fails with "stream closed
// before response.completed"); it ignores the other events.
//
// # What codex 0.169.0 requests
//
// Observed with the configuration written by WriteCodexHome:
//
//   - Only POST {base_url}/responses (stream: true, store: false), with
//     headers Accept: text/event-stream, Originator and User-Agent from the
//     client's clientInfo.name, Session-Id and Thread-Id (the thread id),
//     X-Client-Request-Id, X-Codex-Window-Id, X-Codex-Beta-Features and
//     X-Codex-Turn-Metadata, a JSON object whose "request_kind" is "turn" for
//     model rounds and "compaction" for compactions (the same JSON is in the
//     body's client_metadata["x-codex-turn-metadata"]). No Authorization
//     header. No GET /models, no title or summary generation, no memory
//     requests were seen; the mock still answers GET .../models with an
//     empty list.
//   - Compaction (thread/compact/start, or automatic when the context fills
//     up) is a POST .../responses with request_kind "compaction", no tools,
//     and a last user message starting "You are performing a CONTEXT
//     CHECKPOINT COMPACTION". The mock recognises it by the metadata (or by
//     that shape when the metadata is missing), answers
//     DefaultCompactionSummary (see SetAuxResponse) and does not consume the
//     script; codex then replays the summary as a user message. The remote
//     endpoint POST .../responses/compact (used for OpenAI-hosted providers)
//     is answered the same way. Such requests have Request.Aux set and are
//     left out of Requests (AllRequests has them).
//   - A model round offers the tools exec_command, write_stdin,
//     request_user_input, view_image, the multi_agent_v1 namespace,
//     get_goal/create_goal/update_goal, web_search, plus the thread's
//     dynamic tools; update_plan only with tools.update_plan.enabled, which
//     WriteCodexHome and Overrides set (a call then gives turn/plan/updated,
//     and an error in plan mode). The exec_command arguments are cmd (required), workdir,
//     shell, login, tty, yield_time_ms, max_output_tokens,
//     sandbox_permissions ("use_default" | "require_escalated"),
//     justification and prefix_rule (see ExecCommandArgs). The command runs
//     as `/bin/bash -lc '<cmd>'` (a login shell, so profile noise can show up
//     in the output). Its function_call_output is a string like "Chunk ID:
//     …\nWall time: … seconds\nProcess exited with code 0\nOriginal token
//     count: N\nOutput:\n…"; a declined command gives `exec_command failed:
//     CreateProcess { message: "Rejected(\"rejected by user\")" }` and the
//     commandExecution item ends with status "declined".
//   - Without network access codex also tries, at startup, a curated-plugin
//     sync (github.com, api.github.com, chatgpt.com); features.plugins=false
//     turns it off. An unknown model name makes codex send a "warning"
//     notification ("Model metadata for `mock-model` not found") at thread
//     start; the model catalog written by WriteCodexHome (model_catalog_json)
//     avoids it and gives modelContextWindow in thread/tokenUsage/updated.
//
// # Approvals
//
// With approvalPolicy "untrusted" and sandbox "workspace-write", any command
// that is not known to be read-only (e.g. `echo hi > out.txt`) produces the
// server request item/commandExecution/requestApproval (itemId = the call_id,
// command = "/bin/bash -lc '…'", availableDecisions ["accept",
// {"acceptWithExecpolicyAmendment": …}, "cancel"]); answer
// {"decision":"accept"} and it runs. With "on-request", approval is asked
// only when the call sets sandbox_permissions "require_escalated" (use
// ExecCommandWith); otherwise "on-request" + "workspace-write" runs the
// command in the sandbox without asking, and "on-request" + "read-only"
// runs it sandboxed and lets it fail without asking. Dynamic tools
// (thread/start dynamicTools, experimental API) produce the server request
// item/tool/call {threadId, turnId, callId, namespace, tool, arguments};
// the reply's inputText content items become the function_call_output
// string.
//
// # Errors
//
// Response.FailStatus answers with an HTTP error and an OpenAI-style JSON
// error body. With request_max_retries=0 codex does not retry: the turn ends
// "failed" with an "error" notification. Codex shows the body for 400,
// "unexpected status 401 Unauthorized: <message>" (503 likewise), "exceeded
// retry limit, last status: 429 Too Many Requests" for 429, and a generic
// "We're currently experiencing high demand…" for 500.
//
// # Timing
//
// On a 2-core machine: app-server start plus initialize ≈ 0.3 s,
// thread/start ≈ 30 ms, a text turn ≈ 100–150 ms, a turn with an approved
// exec_command (two rounds) ≈ 300 ms, the BigMarkdown benchmark (100 KB in
// 8,500 deltas) ≈ 0.5 s.
//
// Codex also prints harmless warnings on stderr: helper binaries are not
// created when CODEX_HOME is under /tmp, bubblewrap is not on PATH (the
// bundled one is used; also sent as a configWarning notification), and an
// internal lookup of an unknown default model.
//
// # Script files
//
// LoadScript reads the JSON format documented at ParseScript, e.g.
//
//	{"responses": [
//	  {"items": [{"reasoning": "Plan the change"}, {"exec": "ls"}]},
//	  {"items": [{"text": "Here is the **answer**."}],
//	   "usage": {"input_tokens": 1200, "output_tokens": 40},
//	   "chunk_delay_ms": 15},
//	  {"items": [{"call": "ask_user_question", "arguments": {"questions": [
//	    {"id": "pick", "question": "Which?", "options": [{"label": "A"}, {"label": "B"}]}]}}]},
//	  {"fail_status": 500},
//	  {"big_markdown": {"bytes": 100000, "deltas": 8500}}
//	]}
//
// The command tandem/internal/testkit/mockapi/cmd/mockapi serves such a script from
// a shell: `mockapi --script FILE [--addr 127.0.0.1:0] [--codex-home DIR]`
// prints the base URL on the first line of stdout and serves until killed.
package mockapi
