//go:build !no_ui

// Package web embeds the built web app (web/dist).
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built app with index.html at its root. When the app was
// not built (dist holds only .gitkeep), index.html is absent and the server
// shows how to build it.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return sub
}
