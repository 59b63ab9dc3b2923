package model

import (
	"strconv"

	"charm.land/lipgloss/v2"
)

func lipWidth(s string) int { return lipgloss.Width(s) }

func itoa(n int) string { return strconv.Itoa(n) }
