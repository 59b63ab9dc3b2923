package backend

// MaxUserInputChars is the most characters (Unicode scalar values, as
// Rust's chars() counts them) the app-server takes as the text of one
// user input — turn/start's or turn/steer's: codex's
// MAX_USER_INPUT_TEXT_CHARS (1 << 20) in codex-rs/protocol/src/user_input.rs.
// A longer text is refused by the server with an error; tandem refuses it
// before sending.
const MaxUserInputChars = 1 << 20
