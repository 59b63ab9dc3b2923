// Package ui draws tandem's screen: transcript cells, the status line,
// styles and layout helpers. It is pure drawing: it receives plain Go
// values (no protocol JSON, no backend types), keeps render caches, and
// returns strings. It must not import backend/, model/ or forms/.
package ui
