package sessions

// Author says who sent a prompt in a shared session (`tandem serve
// --record`): the recorder writes it with Mark("author", …) just before the
// prompt's turn/start or turn/steer, as the notification
// "tandem/author". Text is the prompt as sent, so an export can match the
// two when several drivers type at once.
//
// Did, when set, is an action of Who's other than a prompt, as the
// transcript says it ("interrupted the turn", "approved the command"),
// noted just before it reached the app-server; Text is then empty.
type Author struct {
	Who  string `json:"who"`
	Text string `json:"text"`
	Did  string `json:"did,omitempty"`
}

// authorMethod is the recorded notification of an Author.
const authorMethod = "tandem/author"
