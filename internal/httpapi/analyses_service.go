package httpapi

import "github.com/fieldwatch/fieldwatch/internal/analysis"

// analyses is the service the analysis handlers call.
func (s *Server) analyses() *analysis.Service { return s.Analyses }
