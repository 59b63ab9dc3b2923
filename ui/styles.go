package ui

import (
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Styles are the lipgloss styles of every part of the screen. Colours are
// written as full ANSI and reduced by Bubble Tea to what the terminal (or
// NO_COLOR) allows.
type Styles struct {
	Dark bool
	// Width is how the terminal measures text: ansi.WcWidth (the zero
	// value, Bubble Tea's default: a terminal without Unicode core mode,
	// 2027) or ansi.GraphemeWidth (mode 2027 on). See Width and Fit.
	Width ansi.Method

	User, UserBar        lipgloss.Style
	Dim, Italic          lipgloss.Style
	OK, Fail, Running    lipgloss.Style
	Command              lipgloss.Style
	DiffAdd, DiffDel     lipgloss.Style
	DiffHunk, DiffHeader lipgloss.Style
	Warn, Error, Info    lipgloss.Style
	Status               lipgloss.Style
	Accent               lipgloss.Style
	// Danger is the status line's badge for a thread without a sandbox
	// (DangerBadge): white on red, bold; its text says it without colour.
	Danger lipgloss.Style
}

// NewStyles returns the styles for a dark or light background.
func NewStyles(dark bool) Styles {
	pick := func(d, l string) lipgloss.Style {
		if dark {
			return lipgloss.NewStyle().Foreground(lipgloss.Color(d))
		}
		return lipgloss.NewStyle().Foreground(lipgloss.Color(l))
	}
	// Dim and the diff colours show inside approval forms too: each reads
	// at 4.5:1 or more on #000000–#282828 (dark) and on #ffffff/#f0f0f0
	// (light), also in 256 colours (styles_test.go).
	return Styles{
		Dark:       dark,
		User:       pick("#E4E4E7", "#18181B").Bold(true),
		UserBar:    pick("#7C3AED", "#7C3AED"),
		Dim:        pick("#9D9DA5", "#6B6B73"),
		Italic:     pick("#9D9DA5", "#6B6B73").Italic(true),
		OK:         pick("#22C55E", "#15803D"),
		Fail:       pick("#EF4444", "#B91C1C"),
		Running:    pick("#EAB308", "#A16207"),
		Command:    pick("#E4E4E7", "#18181B").Bold(true),
		DiffAdd:    pick("#4ADE80", "#15703D"),
		DiffDel:    pick("#F87171", "#B91C1C"),
		DiffHunk:   pick("#60A5FA", "#1D4ED8"),
		DiffHeader: pick("#E4E4E7", "#18181B").Bold(true),
		Warn:       pick("#FACC15", "#A16207").Bold(true),
		Error:      pick("#F87171", "#B91C1C").Bold(true),
		Info:       pick("#60A5FA", "#1D4ED8"),
		Status:     pick("#A1A1AA", "#52525B"),
		Accent:     pick("#A78BFA", "#6D28D9").Bold(true),
		Danger:     lipgloss.NewStyle().Foreground(lipgloss.Color("#FFFFFF")).Background(lipgloss.Color("#DC2626")).Bold(true),
	}
}

// styleWrap returns a cheap stand-in for style.Render for one line of
// text: the style's codes are rendered once and put around each text.
// It suits a style of colours and attributes only (no padding, width or
// border), such as Dim; lipgloss's Render costs microseconds a call.
func styleWrap(style lipgloss.Style) func(...string) string {
	open, close, ok := strings.Cut(style.Render("x"), "x")
	if !ok {
		return style.Render
	}
	return func(s ...string) string { return open + strings.Join(s, "") + close }
}

// ExpandTabs replaces tabs with spaces to the next multiple of 4 columns,
// since a tab has no width of its own in layout.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	s, _ = expandTabsAt(s, 0)
	return s
}

// expandTabsAt is ExpandTabs for text that starts at column col (in
// runes) of its line; it also returns the column where s ends.
func expandTabsAt(s string, col int) (string, int) {
	if !strings.Contains(s, "\t") {
		if i := strings.LastIndexByte(s, '\n'); i >= 0 {
			return s, utf8.RuneCountInString(s[i+1:])
		}
		return s, col + utf8.RuneCountInString(s)
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String(), col
}

// Wrap hard-wraps plain or styled text to width cells, breaking long words,
// and returns its lines. Widths are measured in grapheme cells.
func Wrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	s = ExpandTabs(strings.ReplaceAll(s, "\r\n", "\n"))
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for _, line := range strings.Split(s, "\n") {
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(line, width, ""), "\n")...)
	}
	return out
}

// Truncate cuts s to width cells, adding "…" when it was longer.
func Truncate(s string, width int) string {
	return ansi.Truncate(s, width, "…")
}

// Prefix prepends first to the first line and rest to the others.
func Prefix(lines []string, first, rest string) []string {
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return lines
}

// ShortHome folds the user's home directory to ~ in path p, for display
// ("/home/ann/src" → "~/src"); a path outside it, or a home of "/" or
// unknown, is returned as it is.
func ShortHome(p string) string {
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
