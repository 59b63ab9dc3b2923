// Command trivialclient is the baseline of scripts/bench.sh: the smallest
// client of `codex app-server` that runs one turn. It starts the
// app-server, sends initialize, initialized, thread/start and turn/start
// with the prompt, reads (and discards) every notification until
// turn/completed, and exits. Its wall time is what the app-server itself
// needs; tandem's should stay within 1.2× of it.
//
// Usage: trivialclient -codex PATH [-cwd DIR] PROMPT
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

func main() {
	codex := flag.String("codex", "codex", "codex executable")
	cwd := flag.String("cwd", ".", "working directory of the thread")
	timeout := flag.Duration("timeout", 5*time.Minute, "give up after this long")
	flag.BoolVar(&verbose, "v", false, "print a timeline to stderr")
	flag.Parse()
	prompt := strings.Join(flag.Args(), " ")
	if err := run(*codex, *cwd, prompt, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "trivialclient:", err)
		os.Exit(1)
	}
}

var (
	verbose bool
	start   = time.Now()
)

func mark(what string) {
	if verbose {
		fmt.Fprintf(os.Stderr, "%6.3fs %s\n", time.Since(start).Seconds(), what)
	}
}

func run(codex, cwd, prompt string, timeout time.Duration) error {
	cmd := exec.Command(codex, "app-server")
	cmd.Dir = cwd
	cmd.Stderr = nil
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting app-server: %w", err)
	}
	defer func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	timer := time.AfterFunc(timeout, func() { cmd.Process.Kill() })
	defer timer.Stop()

	send := func(v map[string]any) error {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		_, err := in.Write(append(b, '\n'))
		return err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	// wait for the response to request id
	await := func(id int) (json.RawMessage, error) {
		for sc.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			if m.ID != nil && m.Method == "" && *m.ID == id {
				if len(m.Error) > 0 {
					return nil, fmt.Errorf("request %d: %s", id, m.Error)
				}
				return m.Result, nil
			}
		}
		return nil, fmt.Errorf("app-server closed its output")
	}
	if err := send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"clientInfo": map[string]any{"name": "trivialclient", "version": "0"}, "capabilities": map[string]any{"experimentalApi": true}}}); err != nil {
		return err
	}
	if _, err := await(1); err != nil {
		return err
	}
	mark("initialized")
	send(map[string]any{"method": "initialized"})
	send(map[string]any{"id": 2, "method": "thread/start", "params": map[string]any{"cwd": cwd, "approvalPolicy": "never", "sandbox": "read-only"}})
	res, err := await(2)
	if err != nil {
		return err
	}
	mark("thread started")
	var th struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	json.Unmarshal(res, &th)
	send(map[string]any{"id": 3, "method": "turn/start", "params": map[string]any{"threadId": th.Thread.ID,
		"input": []any{map[string]any{"type": "text", "text": prompt, "text_elements": []any{}}}}})
	deltas := 0
	for sc.Scan() {
		line := sc.Bytes()
		if !strings.Contains(string(line[:min(len(line), 80)]), `"method"`) {
			continue
		}
		var m struct {
			Method string `json:"method"`
		}
		json.Unmarshal(line, &m)
		switch m.Method {
		case "item/agentMessage/delta":
			if deltas == 0 {
				mark("first delta")
			}
			deltas++
		case "turn/completed":
			mark("turn completed")
			fmt.Printf("turn completed after %d deltas\n", deltas)
			return nil
		}
	}
	return fmt.Errorf("app-server closed its output before turn/completed")
}
