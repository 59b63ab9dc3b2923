package model

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

func lipWidth(s string) int { return lipgloss.Width(s) }

func itoa(n int) string { return strconv.Itoa(n) }

// shortHome folds $HOME to ~ in a path for display.
func shortHome(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return p
	}
	if rel == "." {
		return "~"
	}
	return "~/" + rel
}
