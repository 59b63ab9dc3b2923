package cli

import (
	"bytes"
	"testing"
	"time"

	"tandem/internal/picture"
	"tandem/sessions"
)

// BenchmarkExportDemo draws the embedded demo (371 recorded lines, 100×30)
// as each picture format, as `tandem export` does; bytes/op is the
// picture's size. Budget (#16): under 3 s, SVG under 300 KB, GIF under
// 2 MB.
func BenchmarkExportDemo(b *testing.B) {
	rec, err := sessions.LoadRecording(demoRecording)
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"svg", "gif"} {
		b.Run(format, func(b *testing.B) {
			var size int
			for b.Loop() {
				var buf bytes.Buffer
				p := picOptions{theme: picture.Dark, loop: true, timing: picture.Timing{Speed: 1, IdleLimit: 2 * time.Second}}
				if _, err := drawPicture(&buf, format, rec, nil, p); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size), "picture-bytes")
		})
	}
}
