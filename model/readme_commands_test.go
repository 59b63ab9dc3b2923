package model

import (
	"os"
	"strings"
	"testing"

	"tandem/ui"
)

// Every slash command is in the README (as `/name`) and in /help.
func TestReadmeNamesEveryCommand(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{})
	m.cmdHelp("")
	help := lastBannerLines(m)
	for _, c := range commands() {
		if !strings.Contains(string(readme), "`/"+c.name) {
			t.Errorf("README.md does not name /%s", c.name)
		}
		if !strings.Contains(help, "/"+c.name+" ") {
			t.Errorf("/help does not list /%s", c.name)
		}
	}
	for _, k := range []string{"Shift+Tab", "`$name`"} {
		if !strings.Contains(string(readme), k) {
			t.Errorf("README.md does not name %s", k)
		}
	}
}

func lastBannerLines(m *Model) string {
	for i := len(m.Cells()) - 1; i >= 0; i-- {
		if b, ok := m.Cells()[i].(*ui.BannerCell); ok {
			return strings.Join(b.Detail, "\n")
		}
	}
	return ""
}
