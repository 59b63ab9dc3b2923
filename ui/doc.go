// Package ui draws tandem's screen: transcript cells, the status line,
// styles and layout helpers. A cell draws a thread item (thread.Item) it
// only reads, or a banner of the viewer's own; the transcript caches each
// cell's lines by (version, width), where a cell's version follows its
// item's revision. It returns strings and keeps render caches; it never
// decodes protocol JSON and sends nothing. It must not import backend/,
// model/ or forms/.
package ui
