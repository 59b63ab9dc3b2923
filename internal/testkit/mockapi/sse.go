package mockapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Events returns the Responses API SSE events (each a JSON object with a
// "type" field) that the mock streams for resp, with response id id and
// model name model. It is exported for tests and for tools that want to
// write SSE fixtures.
func Events(resp Response, id, model string) []map[string]any {
	if model == "" {
		model = DefaultModel
	}
	created := time.Now().Unix()
	var evs []map[string]any
	add := func(typ string, kv ...any) {
		ev := map[string]any{"type": typ}
		for i := 0; i+1 < len(kv); i += 2 {
			ev[kv[i].(string)] = kv[i+1]
		}
		evs = append(evs, ev)
	}
	head := func(status string) map[string]any {
		return map[string]any{
			"id": id, "object": "response", "created_at": created,
			"status": status, "model": model, "output": []any{},
		}
	}
	add("response.created", "response", head("in_progress"))
	add("response.in_progress", "response", head("in_progress"))

	var output []any
	for i, it := range resp.Items {
		switch it.Kind {
		case KindMessage:
			itemID := fmt.Sprintf("msg_%s_%d", id, i)
			text := it.Text()
			add("response.output_item.added", "output_index", i, "item", map[string]any{
				"id": itemID, "type": "message", "role": "assistant", "status": "in_progress",
				"content": []any{},
			})
			add("response.content_part.added", "item_id", itemID, "output_index", i, "content_index", 0,
				"part", map[string]any{"type": "output_text", "text": "", "annotations": []any{}})
			for _, c := range it.Chunks {
				add("response.output_text.delta", "item_id", itemID, "output_index", i, "content_index", 0,
					"delta", c)
			}
			add("response.output_text.done", "item_id", itemID, "output_index", i, "content_index", 0,
				"text", text)
			part := map[string]any{"type": "output_text", "text": text, "annotations": []any{}}
			add("response.content_part.done", "item_id", itemID, "output_index", i, "content_index", 0,
				"part", part)
			done := map[string]any{
				"id": itemID, "type": "message", "role": "assistant", "status": "completed",
				"content": []any{part},
			}
			add("response.output_item.done", "output_index", i, "item", done)
			output = append(output, done)
		case KindFunctionCall:
			itemID := fmt.Sprintf("fc_%s_%d", id, i)
			callID := it.CallID
			if callID == "" {
				callID = NewCallID()
			}
			added := map[string]any{
				"id": itemID, "type": "function_call", "status": "in_progress",
				"name": it.Name, "call_id": callID, "arguments": "",
			}
			if it.Namespace != "" {
				added["namespace"] = it.Namespace
			}
			add("response.output_item.added", "output_index", i, "item", added)
			add("response.function_call_arguments.delta", "item_id", itemID, "output_index", i,
				"delta", it.Arguments)
			add("response.function_call_arguments.done", "item_id", itemID, "output_index", i,
				"arguments", it.Arguments)
			done := map[string]any{
				"id": itemID, "type": "function_call", "status": "completed",
				"name": it.Name, "call_id": callID, "arguments": it.Arguments,
			}
			if it.Namespace != "" {
				done["namespace"] = it.Namespace
			}
			add("response.output_item.done", "output_index", i, "item", done)
			output = append(output, done)
		case KindReasoning:
			itemID := fmt.Sprintf("rs_%s_%d", id, i)
			text := it.Text()
			add("response.output_item.added", "output_index", i, "item", map[string]any{
				"id": itemID, "type": "reasoning", "summary": []any{},
			})
			add("response.reasoning_summary_part.added", "item_id", itemID, "output_index", i,
				"summary_index", 0, "part", map[string]any{"type": "summary_text", "text": ""})
			for _, c := range it.Chunks {
				add("response.reasoning_summary_text.delta", "item_id", itemID, "output_index", i,
					"summary_index", 0, "delta", c)
			}
			add("response.reasoning_summary_text.done", "item_id", itemID, "output_index", i,
				"summary_index", 0, "text", text)
			part := map[string]any{"type": "summary_text", "text": text}
			add("response.reasoning_summary_part.done", "item_id", itemID, "output_index", i,
				"summary_index", 0, "part", part)
			done := map[string]any{"id": itemID, "type": "reasoning", "summary": []any{part}}
			add("response.output_item.done", "output_index", i, "item", done)
			output = append(output, done)
		}
	}
	if output == nil {
		output = []any{}
	}

	u := resp.Usage
	total := u.TotalTokens
	if total == 0 {
		total = u.InputTokens + u.OutputTokens
	}
	final := head("completed")
	final["output"] = output
	final["usage"] = map[string]any{
		"input_tokens":          u.InputTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CachedTokens},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
		"total_tokens":          total,
	}
	add("response.completed", "response", final)
	for i, ev := range evs {
		ev["sequence_number"] = i
	}
	return evs
}

// streamSSE writes resp as an SSE stream, flushing after each event and
// sleeping resp.ChunkDelay between events. It stops when the client goes away.
func streamSSE(w http.ResponseWriter, r *http.Request, id, model string, resp Response) error {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Request-Id", "req_"+id)
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	bw := bufio.NewWriterSize(w, 16<<10)
	var timer *time.Timer
	if resp.ChunkDelay > 0 {
		timer = time.NewTimer(0)
		<-timer.C
		defer timer.Stop()
	}
	for i, ev := range Events(resp, id, model) {
		if i > 0 && timer != nil {
			timer.Reset(resp.ChunkDelay)
			select {
			case <-timer.C:
			case <-r.Context().Done():
				return errClientGone
			}
		}
		data, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", ev["type"], data)
		if err := bw.Flush(); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		if err := r.Context().Err(); err != nil {
			return errClientGone
		}
	}
	return nil
}
