package ui

import "github.com/charmbracelet/x/ansi"

func ansiWidth(s string) int { return ansi.StringWidth(s) }
