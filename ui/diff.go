package ui

import (
	"fmt"
	"strconv"
	"strings"
)

// isUnified reports whether diff looks like a unified diff rather than a
// whole file's content (codex sends the content for added and deleted
// files).
func isUnified(diff string) bool {
	for _, p := range []string{"@@", "--- ", "diff ", "+++ "} {
		if strings.HasPrefix(diff, p) || strings.Contains(diff, "\n"+p) && p == "@@" {
			return true
		}
	}
	return false
}

// FileDiffStat counts the added and removed lines of one file of a
// fileChange: for kind "add" or "delete" with plain content every line
// counts, otherwise DiffStat.
func FileDiffStat(f FileDiff) (added, removed int) {
	if !isUnified(f.Diff) && (f.Kind == "add" || f.Kind == "delete") {
		n := strings.Count(strings.TrimRight(f.Diff, "\n"), "\n") + 1
		if strings.TrimSpace(f.Diff) == "" {
			n = 0
		}
		if f.Kind == "add" {
			return n, 0
		}
		return 0, n
	}
	return DiffStat(f.Diff)
}

// DiffStat counts added and removed lines of a unified diff, ignoring the
// ---/+++ headers.
func DiffStat(diff string) (added, removed int) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return
}

// RenderFileDiff colours one file's change as a unified diff with old and
// new line numbers in a gutter, at most maxLines diff lines (0 = 40) and a
// "+N lines" note for the rest. Added and deleted files given as plain
// content are shown as all "+" or all "−" lines.
func RenderFileDiff(st Styles, f FileDiff, width, maxLines int) []string {
	if maxLines <= 0 {
		maxLines = 40
	}
	diff := strings.TrimRight(Sanitize(f.Diff), "\n")
	if diff == "" {
		return nil
	}
	src := strings.Split(diff, "\n")
	if !isUnified(f.Diff) && (f.Kind == "add" || f.Kind == "delete") {
		sign := "+"
		if f.Kind == "delete" {
			sign = "-"
		}
		for i := range src {
			src[i] = sign + src[i]
		}
		src = append([]string{fmt.Sprintf("@@ -%d,%d +%d,%d @@", b2i(sign == "-"), len(src)*b2i(sign == "-"), b2i(sign == "+"), len(src)*b2i(sign == "+"))}, src...)
	}
	// gutter width: the largest line number in any hunk header
	nw := 1
	for _, l := range src {
		if strings.HasPrefix(l, "@@") {
			o, n, oc, nc := parseHunk(l)
			nw = max(nw, len(strconv.Itoa(o+oc)), len(strconv.Itoa(n+nc)))
		}
	}
	var lines []string
	oldN, newN := 0, 0
	shown := 0
	for i, l := range src {
		if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "index ") {
			continue
		}
		if shown == maxLines {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("    … +%d lines", len(src)-i)))
			break
		}
		shown++
		if strings.HasPrefix(l, "@@") {
			oldN, newN, _, _ = parseHunk(l)
			if shown > 1 {
				lines = append(lines, st.DiffHunk.Render("    "+strings.Repeat(" ", nw)+" ⋮"))
			}
			continue
		}
		var num, sign string
		sty := st.Dim
		switch {
		case strings.HasPrefix(l, "+"):
			num, sign, sty = strconv.Itoa(newN), "+", st.DiffAdd
			newN++
		case strings.HasPrefix(l, "-"):
			num, sign, sty = strconv.Itoa(oldN), "-", st.DiffDel
			oldN++
		case strings.HasPrefix(l, `\`):
			num, sign = "", " "
		default:
			num, sign = strconv.Itoa(newN), " "
			oldN++
			newN++
		}
		body := l
		if len(body) > 0 {
			body = body[1:]
		}
		gutter := "    " + strings.Repeat(" ", nw-len(num)) + num + " "
		for j, w := range Wrap(sign+body, width-len(gutter)) {
			g := gutter
			if j > 0 {
				g = strings.Repeat(" ", len(gutter))
			}
			lines = append(lines, st.Dim.Render(g)+sty.Render(w))
		}
	}
	return lines
}

// parseHunk reads "@@ -o,oc +n,nc @@" (counts default to 1).
func parseHunk(h string) (o, n, oc, nc int) {
	oc, nc = 1, 1
	f := strings.Fields(h)
	for _, p := range f[1:] {
		if p == "@@" {
			break
		}
		neg := strings.HasPrefix(p, "-")
		p = strings.TrimLeft(p, "+-")
		a, b, ok := strings.Cut(p, ",")
		x, _ := strconv.Atoi(a)
		y := 1
		if ok {
			y, _ = strconv.Atoi(b)
		}
		if neg {
			o, oc = x, y
		} else {
			n, nc = x, y
		}
	}
	return
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
