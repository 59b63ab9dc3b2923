package act

// The rewind's intents (model/rewind): the choices of its pickers, which
// come back to it. What it asks of the turn machine is the turn's:
// act.Switching, act.OpenThread, act.Send.

// RewindPicked is the message chosen in the rewind picker (model/rewind):
// Turn is its turn's index among the turns the picker was opened with.
type RewindPicked struct{ Turn int }

// RewindChosen is how to rewind, chosen in the rewind's second picker
// (model/rewind): Code takes back the agent's file changes too.
type RewindChosen struct{ Code bool }
