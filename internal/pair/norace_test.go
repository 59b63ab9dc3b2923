//go:build !race

package pair

// serveRaceEnabled is true under -race (see serve_race_test.go).
const serveRaceEnabled = false
