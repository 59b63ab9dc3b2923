package ui

import (
	"fmt"
	"path"
	"strings"
)

// ImageLabel is how an attached image is named on screen: the file's
// base name (ref is a path on the app-server's machine, or an image URL:
// a data: URL shows as "pasted image", another URL as itself), then its
// size when known (bytes ≥ 0).
func ImageLabel(ref string, bytes int64) string {
	name := ref
	switch {
	case strings.HasPrefix(ref, "data:"):
		name = "pasted image"
	case strings.Contains(ref, "://"):
	default:
		name = path.Base(strings.ReplaceAll(ref, `\`, "/"))
	}
	if bytes < 0 {
		return name
	}
	return name + " · " + ByteSize(bytes)
}

// ByteSize is a file size as people read it: "812 B", "240 KB", "3.4 MB"
// (decimal units).
func ByteSize(n int64) string {
	switch {
	case n >= 999_500:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	}
	return fmt.Sprintf("%d B", n)
}
