//go:build no_ui

// Package web embeds the built web app; this build (tag no_ui) has none, so
// the Go side builds and tests without Node.
package web

import "io/fs"

// Dist returns nil: the server shows how to build the app.
func Dist() fs.FS { return nil }
