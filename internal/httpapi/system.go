package httpapi

import (
	"github.com/fieldwatch/fieldwatch/internal/changelog"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// versionHistory serves GET /apis/system/versionHistory: the console's
// versions, newest first, with what each brought in the caller's language.
func (s *Server) versionHistory(c *call) (any, error) {
	list, err := changelog.In(c.lang)
	if err != nil {
		return nil, errs.Internal("%w", err)
	}
	return list, nil
}
