package backend

import (
	"bytes"
	"encoding/json"
)

// A Call is one of tandem's own requests as a recording or trace holds it
// (sessions reads them to export and replay): PromptCall, ShellCall,
// ThreadOpenCall or InitializeCall. DecodeCall makes them.
type Call interface{ call() }

// PromptCall is a `turn/start` (a new turn) or `turn/steer` (Steer: more
// input for the running turn); Texts are its text inputs, in order.
type PromptCall struct {
	Texts []string
	Steer bool
	// Thread is the thread the prompt went to (its threadId).
	Thread string
}

// ShellCall is a `thread/shellCommand`: the user's `!command`.
type ShellCall struct{ Command string }

// ThreadOpenCall is a `thread/start`, a `thread/resume` (Resume) or a
// `thread/fork` (Fork; BeforeTurn is the turn it was cut before, "" for
// the whole history: a rewind when set); its response is a
// ThreadResponse (DecodeResult).
type ThreadOpenCall struct {
	Resume, Fork bool
	BeforeTurn   string
}

// InitializeCall is the `initialize` handshake; its response is an
// InitializeResponse (DecodeResult).
type InitializeCall struct{}

func (PromptCall) call()     {}
func (ShellCall) call()      {}
func (ThreadOpenCall) call() {}
func (InitializeCall) call() {}

// DecodeCall decodes a request tandem sent, by method and params. It
// returns nil (and no error) for the methods no reader of a recording
// needs, and an error when the params of one it knows do not decode.
func DecodeCall(method string, params json.RawMessage) (Call, error) {
	switch method {
	case TurnStart.Name():
		return decodeCall(TurnStart, params, func(p TurnStartParams) Call { return PromptCall{Texts: texts(p.Input), Thread: p.ThreadID} })
	case TurnSteer.Name():
		return decodeCall(TurnSteer, params, func(p TurnSteerParams) Call {
			return PromptCall{Texts: texts(p.Input), Steer: true, Thread: p.ThreadID}
		})
	case ThreadShellCommand.Name():
		return decodeCall(ThreadShellCommand, params, func(p ThreadShellCommandParams) Call { return ShellCall{Command: p.Command} })
	case ThreadStart.Name():
		return ThreadOpenCall{}, nil
	case ThreadResume.Name():
		return ThreadOpenCall{Resume: true}, nil
	case ThreadFork.Name():
		p, err := ThreadFork.decodeParams(params)
		if err != nil || p.Ephemeral {
			return nil, err // an aside's throwaway fork opens no thread for a viewer
		}
		return ThreadOpenCall{Fork: true, BeforeTurn: p.BeforeTurnID}, nil
	case Initialize.Name():
		return InitializeCall{}, nil
	}
	return nil, nil
}

// decodeCall decodes params of m and makes its Call of them (nil when
// they do not decode).
func decodeCall[P, R any](m Method[P, R], params json.RawMessage, call func(P) Call) (Call, error) {
	p, err := m.decodeParams(params)
	if err != nil {
		return nil, err
	}
	return call(p), nil
}

// texts returns the text inputs of in, in order.
func texts(in []UserInput) []string {
	var out []string
	for _, u := range in {
		if u.Type == "text" {
			out = append(out, u.Text)
		}
	}
	return out
}

// DecodeResult decodes the response to a thread/start, thread/resume or
// thread/fork.
func (ThreadOpenCall) DecodeResult(result json.RawMessage) (ThreadResponse, error) {
	var r ThreadResponse
	err := json.Unmarshal(result, &r)
	r.takePage()
	return r, err
}

// DecodeResult decodes the response to initialize.
func (InitializeCall) DecodeResult(result json.RawMessage) (InitializeResponse, error) {
	var r InitializeResponse
	err := json.Unmarshal(result, &r)
	return r, err
}

// TurnBoundary tells, without decoding it, whether a raw line the
// app-server sent is a `turn/started` notification (started) or a
// `turn/completed` one (completed). It is cheap enough to run on every
// line of a stream.
func TurnBoundary(line []byte) (started, completed bool) {
	switch {
	case bytes.Contains(line, []byte(`"method":"turn/started"`)):
		return true, false
	case bytes.Contains(line, []byte(`"method":"turn/completed"`)):
		return false, true
	}
	return false, false
}
