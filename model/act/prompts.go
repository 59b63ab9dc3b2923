package act

import _ "embed"

// InitPrompt is Codex's own /init prompt, as codex 0.169.0 and 0.171.0
// send it: codex-rs/tui/prompt_for_init_command.md of
// https://github.com/openai/codex (Apache-2.0, © OpenAI), unchanged. /init
// sends it as a turn; the transcript and the title show "/init" for it.
//
//go:embed init_prompt.md
var InitPrompt string
