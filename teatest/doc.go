// Package teatest holds tandem's golden-screen tests: the model runs in a
// headless Bubble Tea program (charmbracelet/x/exp/teatest) at a fixed
// size with a colour-free profile, is fed typed backend events, and its
// screen is compared with testdata/*.golden. Refresh with
// `go test ./teatest -update`.
package teatest
