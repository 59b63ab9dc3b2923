package model

import (
	"os"
	"strings"
	"testing"
)

// Every slash command is in the README (as `/name`), and so is every key
// the composer gives a meaning of its own to here (Shift+Tab).
func TestReadmeNamesEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, c := range commands() {
		if !strings.Contains(readme, "`/"+c.name) {
			t.Errorf("README.md does not name /%s", c.name)
		}
	}
	for _, k := range []string{"Shift+Tab", "`$name`"} {
		if !strings.Contains(readme, k) {
			t.Errorf("README.md does not name %s", k)
		}
	}
}
