//go:build race

package pair

// serveRaceEnabled is true under -race, where rendering is ~10x slower and
// a throughput comparison means nothing.
const serveRaceEnabled = true
