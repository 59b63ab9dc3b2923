package sessions

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// What a rollout line holds for the search: the events of the items a
// thread shows (event_msg item_completed, and the older user_message,
// agent_message, agent_reasoning, exec_command_end). The model's copy
// of the same text (response_item), the context sent with it (world
// state, environment, instructions) and the settings (session_meta,
// turn_context) are not searched.

// snippetSide is how many characters of text a snippet shows on each
// side of the match, at most.
const snippetSide = 60

// matcher is one query: q lowered (ASCII letters), raw the same as it
// appears inside a JSON string (serde's escapes).
type matcher struct {
	q   string
	raw []byte
}

func newMatcher(query string) *matcher {
	q := asciiLowerString(query)
	return &matcher{q: q, raw: []byte(jsonEscape(q))}
}

// rawIn reports whether a lowered line holds the query at all.
func (m *matcher) rawIn(lower []byte) bool { return bytes.Contains(lower, m.raw) }

// jsonEscape is s as serde_json writes it inside a string.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(r)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(r)&15, 16))
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// asciiLower appends src to dst with ASCII letters lowered, eight bytes
// at a time (a byte with its high bit set, part of a UTF-8 sequence, is
// kept as it is).
func asciiLower(dst, src []byte) []byte {
	n := len(dst)
	dst = append(dst, src...)
	b := dst[n:]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], lower8(binary.LittleEndian.Uint64(b[i:])))
	}
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return dst
}

// lower8 lowers the ASCII capitals among the eight bytes of w (SWAR: the
// high bit of each byte says whether it is one).
func lower8(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	low7 := w &^ highs
	geA := low7 + (0x80-'A')*ones   // high bit: the byte's low 7 bits ≥ 'A'
	gtZ := low7 + (0x80-'Z'-1)*ones // high bit: > 'Z'
	upper := geA &^ gtZ &^ w & highs
	return w | upper>>2 // 0x80>>2 is 0x20, 'a'-'A'
}

// eventLine reports whether a rollout line is an event (type event_msg),
// from its first "type" (the line's own: the timestamp and the ordinal
// come before it); a line whose head names none is taken as one.
func eventLine(line []byte) bool {
	head := line[:min(len(line), 256)]
	i := bytes.Index(head, typeKey)
	if i < 0 {
		return true
	}
	return bytes.HasPrefix(head[i+len(typeKey):], eventMsg)
}

var (
	typeKey  = []byte(`"type":"`)
	eventMsg = []byte(`event_msg"`)
)

func asciiLowerString(s string) string { return string(asciiLower(nil, []byte(s))) }

// found is what matched in a line: its kind, the text of the field, and
// the byte offset of the match in it.
type found struct {
	kind, text string
	at         int
}

// skipKeys are fields of an item that are not its text: ids, paths and
// states a query must not match in every thread.
var skipKeys = map[string]bool{
	"id": true, "type": true, "cwd": true, "process_id": true, "source": true, "status": true,
	"call_id": true, "turn_id": true, "thread_id": true, "started_at_ms": true, "completed_at_ms": true,
	"parsed_cmd": true, "exit_code": true, "duration": true, "phase": true, "text_elements": true,
}

// decodeFind decodes a line and finds the query in the text of the event
// it holds; m nil finds the first prompt's text instead.
func decodeFind(line []byte, m *matcher) (found, bool) {
	var l struct {
		Type    string         `json:"type"`
		Payload map[string]any `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "event_msg" {
		return found{}, false
	}
	ptype, _ := l.Payload["type"].(string)
	var root any
	itemType := ""
	switch ptype {
	case "item_completed":
		item, _ := l.Payload["item"].(map[string]any)
		itemType, _ = item["type"].(string)
		root = item
	case "user_message", "agent_message":
		root = map[string]any{"message": l.Payload["message"]}
	case "agent_reasoning":
		root = map[string]any{"text": l.Payload["text"]}
	case "exec_command_end":
		root = map[string]any{"command": l.Payload["command"], "aggregated_output": l.Payload["aggregated_output"]}
	default:
		return found{}, false
	}
	var f found
	ok := walkText(root, "", func(key, text string) bool {
		kind := kindOf(ptype, itemType, key)
		if m == nil {
			if kind == "prompt" {
				f = found{kind: kind, text: text}
				return true
			}
			return false
		}
		if i := strings.Index(asciiLowerString(text), m.q); i >= 0 {
			f = found{kind: kind, text: text, at: i}
			return true
		}
		return false
	})
	return f, ok
}

// walkText calls fn on each string under v (key: the field it is in),
// in document order of arrays (objects: Go's map order, but one item
// holds few text fields), until fn reports true.
func walkText(v any, key string, fn func(key, text string) bool) bool {
	switch v := v.(type) {
	case string:
		return fn(key, v)
	case []any:
		for _, e := range v {
			if walkText(e, key, fn) {
				return true
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if skipKeys[k] {
				continue
			}
			if walkText(v[k], k, fn) {
				return true
			}
		}
	}
	return false
}

// sortedKeys are m's keys, text fields first in a fixed order so a match
// is found in the same field every time.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case "content", "text", "message", "command":
			return 0
		case "aggregated_output":
			return 1
		}
		return 2
	}
	for i := 1; i < len(keys); i++ { // a few keys: insertion sort
		for j := i; j > 0 && (rank(keys[j]) < rank(keys[j-1]) || rank(keys[j]) == rank(keys[j-1]) && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// kindOf names what matched, from the event's type, its item's type and
// the field.
func kindOf(ptype, itemType, key string) string {
	switch ptype {
	case "user_message":
		return "prompt"
	case "agent_message":
		return "answer"
	case "agent_reasoning":
		return "reasoning"
	case "exec_command_end":
		if key == "command" {
			return "command"
		}
		return "output"
	}
	switch itemType {
	case "UserMessage":
		return "prompt"
	case "AgentMessage":
		return "answer"
	case "Reasoning":
		return "reasoning"
	case "CommandExecution":
		if key == "command" {
			return "command"
		}
		return "output"
	case "FileChange":
		return "diff"
	case "McpToolCall", "DynamicToolCall", "WebSearch", "CollabAgentToolCall":
		return "tool"
	}
	return strings.ToLower(strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return -1 // an item's type is a word: nothing else of it is shown
	}, itemType))
}

// headKind says from the first piece of a long line whether it is an
// event the search covers, and the kind of a match in it (a long item is
// a command's output, an answer, a diff …).
func headKind(head []byte) (string, bool) {
	head = head[:min(len(head), 64<<10)]
	t, ok := jsonField(head, "type")
	if !ok || t != "event_msg" {
		return "", false
	}
	i := bytes.Index(head, []byte(`"type":"event_msg"`))
	rest := head[i+len(`"type":"event_msg"`):]
	ptype, ok := jsonField(rest, "type")
	if !ok {
		return "", false
	}
	switch ptype {
	case "user_message", "agent_message", "agent_reasoning", "exec_command_end":
		return kindOf(ptype, "", "aggregated_output"), true
	case "item_completed":
		j := bytes.Index(rest, []byte(`"item":`))
		if j < 0 {
			return "", false
		}
		itemType, _ := jsonField(rest[j:], "type")
		return kindOf(ptype, itemType, "aggregated_output"), true
	}
	return "", false
}

// unescapeLoose reads a piece of a JSON string's inside (possibly cut
// anywhere): the escapes it can read are read, the rest kept.
func unescapeLoose(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out.WriteByte(c)
			continue
		}
		i++
		switch b[i] {
		case 'n', 'r', 't', 'b', 'f':
			out.WriteByte(' ')
		case 'u':
			if i+4 < len(b) {
				if n, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32); err == nil {
					out.WriteRune(rune(n))
					i += 4
					continue
				}
			}
			out.WriteString(`\u`)
		default:
			out.WriteByte(b[i])
		}
	}
	return strings.ToValidUTF8(out.String(), "")
}

// snippet is one line of text around the match at [at, at+n): at most
// snippetSide characters on each side, "…" where cut, every control
// character and line break a space; and the match's byte range in it.
func snippet(text string, at, n int) (string, [2]int) {
	if at > len(text) {
		at = len(text)
	}
	end := min(len(text), at+n)
	before, match, after := text[:at], text[at:end], text[end:]
	cutBefore, cutAfter := false, false
	if utf8.RuneCountInString(before) > snippetSide {
		r := []rune(before)
		before, cutBefore = string(r[len(r)-snippetSide:]), true
	}
	if utf8.RuneCountInString(after) > snippetSide {
		after, cutAfter = string([]rune(after)[:snippetSide]), true
	}
	before, match, after = flat(before), flat(match), flat(after)
	before = strings.TrimLeft(before, " ")
	after = strings.TrimRight(after, " ")
	if cutBefore {
		before = "…" + before
	}
	if cutAfter {
		after += "…"
	}
	return before + match + after, [2]int{len(before), len(before) + len(match)}
}

// flat makes every control character (C0, DEL, C1) of s a space and
// runs of spaces one.
func flat(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "?") {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// previewLine is text flattened to one line of at most n characters.
func previewLine(text string, n int) string {
	s := strings.TrimSpace(flat(text))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
