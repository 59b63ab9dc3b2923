package model

import "tandem/ui"

// InfoMsg shows Text as an info banner in this viewer's transcript only
// (e.g. how guests join, for the host of `tandem serve --attach`).
type InfoMsg struct{ Text string }

func (m *Model) onInfo(msg InfoMsg) {
	m.banner(ui.BannerInfo, msg.Text, nil)
}
