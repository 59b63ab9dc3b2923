//go:build !linux

package backend

// EnableSubreaper is a no-op where child subreapers do not exist.
func EnableSubreaper() error { return nil }

// ReapOrphans is a no-op where child subreapers do not exist.
func ReapOrphans() {}
