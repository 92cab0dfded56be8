package emulator

// registerRoutes is the one place that lists what the emulator serves. Every
// pattern registered here must be documented in an openapi/*.json fragment (a test checks
// it). Each domain registers its own routes (mux.go has the plumbing); their
// more specific patterns win over the generic ones registered last.
func (s *Server) registerRoutes() {
	s.handle("GET /mail/swagger", s.serveOpenAPI)
	s.handle("GET "+swaggerUIBase+"{file}", s.serveSwaggerUIAsset)
	s.handle("POST "+OAuth2TokenPath, s.issueToken)
	s.registerContacts()
	s.registerBatches()
	s.registerExports()
	s.registerObjectStore()
	s.registerImports()
	s.registerWebhooks()
	s.registerTriggers()
	s.registerGeneric()
}
